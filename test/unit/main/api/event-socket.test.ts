import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { ApiClient } from '../../../../main/api/client';
import { openEventSocket, type CapturedFrame, type EventSocketOptions, type SocketEvent } from '../../../../main/api/event-socket';
import { parseRealtimeServerEvent, type RealtimeServerEvent } from '../../../../shared/wire/realtime';
import { startWsServer, until } from './ws-server';

const KEY = 'sk-voice-key-123456';
const SECRET = 'cs-client-secret-98765';

describe('event socket', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function open(onConnection: (ws: WebSocket) => void, opts: Partial<EventSocketOptions<RealtimeServerEvent>> = {}, server: { autoPong?: boolean } = {}) {
    const srv = await startWsServer(onConnection, server);
    const client = new ApiClient({ baseUrl: srv.baseUrl, apiKey: KEY });
    cleanups.push(() => srv.close(), () => client.dispose());
    const frames: CapturedFrame[] = [];
    const result = await openEventSocket<RealtimeServerEvent>(client, '/v1/realtime', {
      parse: parseRealtimeServerEvent,
      onFrame: (f) => frames.push(f),
      limits: { keepAliveIntervalMs: 0 },
      ...opts,
    });
    if (!result.ok) throw new Error(result.error.message);
    cleanups.push(() => void result.socket.terminate());
    return { socket: result.socket, frames, srv };
  }

  async function read(socket: { next(): Promise<SocketEvent<RealtimeServerEvent> | null> }, n: number): Promise<Array<SocketEvent<RealtimeServerEvent>>> {
    const out: Array<SocketEvent<RealtimeServerEvent>> = [];
    for (let i = 0; i < n; i++) {
      const e = await socket.next();
      if (!e) break;
      out.push(e);
    }
    return out;
  }

  it('delivers a message sent with the 101, keeps unknown types, reports invalid and non-JSON messages', async () => {
    const { socket } = await open((ws) => {
      ws.send(JSON.stringify({ type: 'session.created', session: { id: 'sess_1', voice: 'eve' } }));
      ws.send(JSON.stringify({ type: 'response.reasoning.delta', delta: 'hm' }));
      ws.send(JSON.stringify({ type: 'input_audio_buffer.speech_started', audio_start_ms: 'soon' }));
      ws.send('not json at all');
      ws.send(JSON.stringify({ type: 'ping', timestamp: 1 }));
    });
    const events = await read(socket, 5);
    expect(events.map((e) => e.kind)).toEqual(['message', 'unknown', 'invalid', 'invalid', 'message']);
    const bad = events[2]!;
    expect(bad.kind === 'invalid' && bad.error.message).toMatch(/^127\.0\.0\.1:\d+ sent a message the workbench does not understand \(input_audio_buffer\.speech_started: audio_start_ms: .*\); it was skipped\.$/);
    expect(events[3]!.kind === 'invalid' && events[3]!.error.message).toMatch(/sent a message that is not JSON: not json at all$/);
    expect(socket.stats.invalid).toBe(2);
  });

  it('captures both directions in order, masking the key and the client secret, summarising audio', async () => {
    const audio = Buffer.alloc(3200, 7);
    const { socket, frames } = await open(
      (ws) => {
        ws.on('message', (data, isBinary) => {
          if (isBinary) return void ws.send(data, { binary: true });
          // The service echoes what it got inside an error, and quotes the key in another form too.
          ws.send(JSON.stringify({ type: 'error', error: { message: `bad request: ${String(data)} for key ${KEY} (${Buffer.from(KEY).toString('base64')})` } }));
          ws.send(JSON.stringify({ type: 'response.output_audio.delta', delta: audio.toString('base64'), item_id: 'item_1' }));
        });
      },
      { secrets: [SECRET], audio: { in: { codec: 'pcm', sampleRate: 16000 }, out: { codec: 'pcm', sampleRate: 16000 } } },
    );
    expect((await socket.sendJson({ type: 'input_audio_buffer.append', audio: audio.toString('base64'), note: `${KEY}/${SECRET}` })).ok).toBe(true);
    const [err, delta] = await read(socket, 2);
    expect(await socket.sendBinary(audio)).toEqual({ ok: true });
    const [echo] = await read(socket, 1);

    // What the consumer reads: the key masked in text, the audio exact.
    expect(JSON.stringify(err)).not.toContain(KEY);
    expect(JSON.stringify(err)).toContain('***');
    expect(delta!.kind === 'message' && (delta!.message as { delta: string }).delta).toBe(audio.toString('base64'));
    expect(echo!.kind === 'binary' && echo!.bytes.equals(audio)).toBe(true);

    // What is captured: both directions, in order, nothing secret, no audio bytes.
    const dump = JSON.stringify(frames);
    for (const secret of [KEY, SECRET, Buffer.from(KEY).toString('base64').replace(/=+$/, '')]) expect(dump).not.toContain(secret);
    expect(dump).not.toContain(audio.toString('base64').slice(0, 64));
    expect(frames.map((f) => [f.direction, f.kind, f.seq])).toEqual([
      ['out', 'json', 0],
      ['in', 'json', 1],
      ['in', 'json', 2],
      ['out', 'binary', 3],
      ['in', 'binary', 4],
    ]);
    const summary = { bytes: 3200, durationMs: 100, head: expect.stringMatching(/^[0-9a-f]{16}$/) };
    expect(frames[0]).toMatchObject({ kind: 'json', type: 'input_audio_buffer.append', data: { audio: { $audio: summary }, note: '***/***' } });
    expect(frames[2]).toMatchObject({ kind: 'json', type: 'response.output_audio.delta', data: { delta: { $audio: summary }, item_id: 'item_1' } });
    expect(frames[3]).toMatchObject({ kind: 'binary', bytes: 3200, audio: summary });
    expect(frames[4]).toMatchObject({ kind: 'binary', audio: summary });
    expect(frames.every((f, i) => i === 0 || f.at >= frames[i - 1]!.at)).toBe(true);
  });

  it('masks a key split over two frames, each way, in what is captured', async () => {
    const [head, tail] = [KEY.slice(0, 9), KEY.slice(9)];
    const { socket, frames } = await open((ws) => {
      ws.on('message', (data) => {
        const m = JSON.parse(String(data)) as { delta: string };
        ws.send(JSON.stringify({ type: 'response.output_text.delta', delta: m.delta }));
      });
    });
    await socket.sendJson({ type: 'text.delta', delta: `my key is ${head}` });
    await socket.sendJson({ type: 'text.delta', delta: `${tail} ok` });
    await read(socket, 2);
    await socket.close();
    const dump = JSON.stringify(frames);
    const bySeq = [...frames].sort((a, b) => a.seq - b.seq);
    expect(bySeq.map((f) => f.seq)).toEqual([0, 1, 2, 3]);
    for (const piece of [head, tail]) expect(dump).not.toContain(piece);
    const out = bySeq.filter((f) => f.direction === 'out');
    const incoming = bySeq.filter((f) => f.direction === 'in');
    expect(out.map((f) => f.kind === 'json' && f.data)).toEqual([{ type: 'text.delta', delta: 'my key is ***' }, { type: 'text.delta', delta: '*** ok' }]);
    expect(incoming.map((f) => f.kind === 'json' && (f.data as { delta: string }).delta)).toEqual(['my key is ***', '*** ok']);
  });

  it('a message over the frame limit closes the socket with an error saying so; what came before is read', async () => {
    const { socket } = await open(
      (ws) => {
        ws.send(JSON.stringify({ type: 'ping' }));
        ws.send(JSON.stringify({ type: 'response.output_audio.delta', delta: 'A'.repeat(4096) }));
      },
      { limits: { maxFrameBytes: 2048, keepAliveIntervalMs: 0 } },
    );
    const events = await read(socket, 5);
    expect(events.map((e) => e.kind)).toEqual(['message']);
    const closed = await socket.closed;
    expect(closed.error).toMatchObject({ kind: 'protocol', code: 'ws_1009' });
    expect(closed.error!.message).toMatch(/^127\.0\.0\.1:\d+ sent a WebSocket message larger than 2 KiB, the most the workbench accepts in one message, so the connection was closed\. What arrived before is kept\.$/);
  });

  it.each([
    [1000, 'bye', null, null],
    [1008, 'client secret expired', 'http', /closed the connection for a policy violation \(1008\)\. The service said: "client secret expired"\. This usually means the key or client secret was refused or expired/],
    [1011, '', 'http', /hit an internal error and closed the connection \(1011\)\. What arrived before is kept\. Try again\.$/],
    [1001, '', 'network', /went away \(1001: the service is shutting down or restarting\)\. What arrived before is kept\. Reconnect in a moment\.$/],
    [1009, 'frame too big', 'protocol', /because a message the workbench sent was too large for it \(1009\)\. The service said: "frame too big"\. Send smaller pieces/],
    [4429, 'too many sessions', 'http', /closed the connection with code 4429\. Rate limited or out of credits \(429\): too many sessions\. Wait a moment/],
    [4100, 'session replaced', 'http', /closed the connection with its own code 4100\. The service said: "session replaced"\./],
  ])('close code %i becomes %s', async (code, reason, kind, message) => {
    const { socket } = await open((ws) => setTimeout(() => ws.close(code, reason), 10));
    const closed = await socket.closed;
    expect(closed.code).toBe(code);
    if (kind === null) return expect(closed.error).toBeNull();
    expect(closed.error).toMatchObject({ kind, code: `ws_${code}` });
    expect(closed.error!.message).toMatch(message!);
  });

  it('a connection dropped without a close is 1006, a network error to reconnect from', async () => {
    const { socket } = await open((ws) => setTimeout(() => ws.terminate(), 10));
    const closed = await socket.closed;
    expect(closed).toMatchObject({ code: 1006, error: { kind: 'network', code: 'ws_1006' } });
    expect(closed.error!.message).toMatch(/dropped without a close message \(1006\).*Reconnect to go on\.$/);
    expect(await socket.next()).toBeNull();
    expect(await socket.sendJson({ type: 'response.cancel' })).toMatchObject({ ok: false, reason: 'closed' });
  });

  it('keep-alive finds a dead peer, and leaves a live one alone', async () => {
    const limits = { keepAliveIntervalMs: 30, keepAliveTimeoutMs: 120 };
    const dead = await open(() => undefined, { limits }, { autoPong: false });
    const closed = await dead.socket.closed;
    expect(closed.error).toMatchObject({ kind: 'timeout', code: 'ws_dead_peer' });
    expect(closed.error!.message).toMatch(/stopped answering: no reply to a keep-alive ping within 0\.1 s, so the connection was closed\./);

    let pings = 0;
    const live = await open((ws) => ws.on('ping', () => pings++), { limits });
    await until(() => pings >= 4, 'four pings answered');
    expect(live.socket.open).toBe(true);
    expect(live.socket.stats.pingsSent).toBeGreaterThanOrEqual(4);
  });

  it('send back-pressure: a service that stops reading gives slow_consumer, memory stays bounded, nothing is lost', async () => {
    let server: WebSocket | null = null;
    const received: number[] = [];
    const { socket } = await open(
      (ws) => {
        server = ws;
        ws.pause();
        ws.on('message', (data: Buffer) => received.push(data.readUInt32LE(0)));
      },
      { limits: { sendHighWaterBytes: 256 * 1024, drainTimeoutMs: 150, keepAliveIntervalMs: 0 } },
    );
    await until(() => server !== null, 'server socket');
    const frame = Buffer.alloc(64 * 1024);
    let sent = 0;
    let maxBuffered = 0;
    let outcome: Awaited<ReturnType<typeof socket.sendBinary>> | null = null;
    for (let i = 0; i < 5000; i++) {
      frame.writeUInt32LE(i, 0);
      const r = await socket.sendBinary(frame);
      maxBuffered = Math.max(maxBuffered, socket.bufferedBytes);
      if (!r.ok) {
        outcome = r;
        break;
      }
      sent++;
    }
    expect(outcome).toMatchObject({ ok: false, reason: 'slow_consumer', error: { code: 'slow_consumer' } });
    expect(outcome!.ok === false && outcome!.error.message).toMatch(/is not reading fast enough: more than 256 KiB are still waiting to be sent, so this message was not sent\./);
    expect(maxBuffered).toBeLessThanOrEqual(256 * 1024 + 64 * 1024);
    expect(socket.stats.slowConsumer).toBe(1);

    // The service reads again: every frame reported sent arrives, in order, and sending works again.
    server!.resume();
    await until(() => received.length === sent, 'all sent frames received');
    expect(received).toEqual(Array.from({ length: sent }, (_, i) => i));
    frame.writeUInt32LE(99999, 0);
    expect(await socket.sendBinary(frame)).toEqual({ ok: true });
    await until(() => received.length === sent + 1, 'the next frame');
  });

  it('incoming back-pressure: a consumer that does not read pauses the socket; everything arrives once it reads', async () => {
    const { socket } = await open((ws) => {
      for (let i = 0; i < 200; i++) ws.send(JSON.stringify({ type: 'response.output_text.delta', delta: String(i) }));
    }, { limits: { inboundQueueMessages: 16, keepAliveIntervalMs: 0 } });
    await new Promise((r) => setTimeout(r, 50));
    const got: string[] = [];
    for (let i = 0; i < 200; i++) {
      const e = await socket.next();
      if (e?.kind === 'message') got.push((e.message as { delta: string }).delta);
    }
    expect(got).toEqual(Array.from({ length: 200 }, (_, i) => String(i)));
    expect(socket.stats.readPauses).toBeGreaterThanOrEqual(1);
  });

  it('a consumer that stops reading is not mistaken for a dead peer', async () => {
    const big = 'x'.repeat(4096);
    const { socket } = await open((ws) => {
      for (let i = 0; i < 2000; i++) ws.send(JSON.stringify({ type: 'response.output_text.delta', delta: `${i}:${big}` }));
    }, { limits: { inboundQueueMessages: 4, keepAliveIntervalMs: 20, keepAliveTimeoutMs: 60 } });
    await until(() => socket.stats.readPauses >= 1, 'reading paused');
    // Several keep-alive periods pass while nothing is read (the pong would sit behind unread data).
    await new Promise((r) => setTimeout(r, 400));
    expect(socket.open).toBe(true);
    let got = 0;
    while (got < 2000) {
      const e = await socket.next();
      if (!e) break;
      if (e.kind === 'message') got++;
    }
    expect(got).toBe(2000);
    expect(socket.open).toBe(true);
  });

  it('an aborted signal closes the socket as cancelled; a refused handshake masks the client secret', async () => {
    const controller = new AbortController();
    const { socket } = await open(() => undefined, { signal: controller.signal });
    controller.abort();
    expect((await socket.closed).error).toMatchObject({ kind: 'cancelled' });

    const srv = await startWsServer(() => undefined);
    cleanups.push(() => srv.close());
    const client = new ApiClient({ baseUrl: srv.baseUrl.replace(/:\d+$/, ':1'), apiKey: KEY });
    cleanups.push(() => client.dispose());
    const refused = await openEventSocket(client, '/v1/realtime', { parse: parseRealtimeServerEvent, secrets: [SECRET], protocols: [`svc-client-secret.${SECRET}`] });
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused)).not.toContain(SECRET);
  });
});
