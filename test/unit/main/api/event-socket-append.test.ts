import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../../../main/api/client';
import { openEventSocket, type CapturedFrame, type EventSocketOptions, type SocketEvent } from '../../../../main/api/event-socket';
import { LazyAudioSummary, summariseAudio } from '../../../../main/api/socket-capture';
import { parseRealtimeServerEvent, type RealtimeServerEvent } from '../../../../shared/wire/realtime';
import { startWsServer, until } from './ws-server';

// The audio summary's work (the head's decode and its SHA-256) is watched through node:crypto as
// socket-capture.ts imports it: it must be done only for a frame somebody reads.
const spies = vi.hoisted(() => ({ hashes: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  return {
    ...real,
    createHash: (...args: Parameters<typeof real.createHash>) => {
      spies.hashes++;
      return real.createHash(...args);
    },
  };
});

const KEY = 'sk-voice-key-123456';
const PCM = Buffer.alloc(960, 3); // 20 ms at 24 kHz
const ANSWER = Buffer.from(Array.from({ length: 4800 }, (_, i) => (i * 7) & 255)); // 100 ms at 24 kHz
const DELTAS = 10;

/** The summary as made eagerly before (the hash counted too: call before taking a count). */
const eager = (bytes: Buffer) => summariseAudio(bytes, { codec: 'pcm', sampleRate: 24000 });

describe('event socket: audio summaries are made only when a frame is read', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** A socket whose peer answers `go` with DELTAS audio deltas and one binary frame. */
  async function open(opts: Pick<EventSocketOptions<RealtimeServerEvent>, 'captures'>) {
    const got: string[] = [];
    const srv = await startWsServer((ws) =>
      ws.on('message', (d, isBinary) => {
        got.push(String(d));
        if (isBinary || JSON.parse(String(d)).type !== 'go') return;
        for (let i = 0; i < DELTAS; i++) ws.send(JSON.stringify({ type: 'response.output_audio.delta', response_id: 'resp_1', item_id: 'item_1', output_index: 0, content_index: 0, delta: ANSWER.toString('base64') }));
        ws.send(ANSWER);
      }),
    );
    const client = new ApiClient({ baseUrl: srv.baseUrl, apiKey: KEY });
    cleanups.push(() => srv.close(), () => client.dispose());
    const frames: CapturedFrame[] = [];
    const opened = await openEventSocket<RealtimeServerEvent>(client, '/v1/realtime', {
      parse: parseRealtimeServerEvent,
      onFrame: (f) => frames.push(f),
      limits: { keepAliveIntervalMs: 0 },
      audio: { in: { codec: 'pcm', sampleRate: 24000 }, out: { codec: 'pcm', sampleRate: 24000 } },
      ...opts,
    });
    if (!opened.ok) throw new Error(opened.error.message);
    const socket = opened.socket;
    cleanups.push(() => void socket.terminate());
    /** Sends 50 appends, a binary frame and `go`, and reads the answer (DELTAS deltas and a binary frame). */
    const exchange = async () => {
      expect((await socket.sendJson({ type: 'session.update', session: { instructions: `key ${KEY}` } })).ok).toBe(true);
      for (let i = 0; i < 50; i++) expect((await socket.sendJson({ type: 'input_audio_buffer.append', audio: PCM.toString('base64') })).ok).toBe(true);
      expect((await socket.sendBinary(PCM)).ok).toBe(true);
      expect((await socket.sendJson({ type: 'go' })).ok).toBe(true);
      const read: Array<SocketEvent<RealtimeServerEvent>> = [];
      while (read.length < DELTAS + 1) read.push((await socket.next())!);
      await until(() => got.length === 53, 'all 53 messages at the server');
      return read;
    };
    return { socket, frames, got, exchange };
  }

  it('a socket that reads only its control messages makes no summary, for appends out or deltas in; the consumer still gets the exact audio', async () => {
    const { socket, frames, got, exchange } = await open({ captures: (direction, type) => direction === 'out' && type !== null && type !== 'input_audio_buffer.append' });
    const before = spies.hashes;
    const read = await exchange();
    await socket.close();
    expect(spies.hashes).toBe(before);
    // What the consumer and the service see is untouched.
    expect(JSON.parse(got[1]!).audio).toBe(PCM.toString('base64'));
    expect(read.slice(0, DELTAS).map((e) => e.kind === 'message' && (e.message as { delta: string }).delta)).toEqual(Array(DELTAS).fill(ANSWER.toString('base64')));
    expect(read[DELTAS]!.kind === 'binary' && read[DELTAS]!.bytes.equals(ANSWER)).toBe(true);
    // Only what it reads is captured, numbered in the socket's order of both directions (session.update 0, go 52).
    expect(frames.map((f) => [f.seq, f.kind === 'json' ? f.type : f.kind])).toEqual([
      [0, 'session.update'],
      [52, 'go'],
    ]);
    expect(JSON.stringify(frames)).not.toContain(KEY);
  });

  it('a captured message that could hold a key’s start is not held back by the uncaptured appends after it (a barge-in’s truncate reached the log only with the next control message)', async () => {
    const { socket, frames, got } = await open({ captures: (direction, type) => direction === 'out' && type !== null && type !== 'input_audio_buffer.append' });
    // Its last string ends in `s`: a key could start there, so the log holds it for its direction's next frame.
    expect((await socket.sendJson({ type: 'conversation.item.truncate', item_id: 'item_abcs', content_index: 0, audio_end_ms: 2332 })).ok).toBe(true);
    for (let i = 0; i < 20; i++) expect((await socket.sendJson({ type: 'input_audio_buffer.append', audio: PCM.toString('base64') })).ok).toBe(true);
    await until(() => got.length === 21, 'the truncate and the appends at the server');
    // The socket stays open and sends no other captured frame: the truncate is let go on its own.
    await until(() => frames.some((f) => f.kind === 'json' && f.type === 'conversation.item.truncate'), 'the truncate in the captured frames');
    expect(frames.map((f) => [f.seq, f.kind === 'json' ? f.type : f.kind])).toEqual([[0, 'conversation.item.truncate']]);
    expect(frames[0]).toMatchObject({ data: { item_id: 'item_abcs', audio_end_ms: 2332 } });
    await socket.close();
    expect(frames).toHaveLength(1);
  });

  it('a socket that reads every frame gets the same summaries as before, made when logged, plain (no getters)', async () => {
    const { socket, frames, exchange } = await open({});
    const [pcm, answer] = [eager(PCM), eager(ANSWER)];
    await exchange();
    await socket.close();
    expect(frames.map((f) => f.seq)).toEqual(Array.from({ length: 64 }, (_, i) => i));
    const appends = frames.filter((f) => f.kind === 'json' && f.type === 'input_audio_buffer.append');
    expect(appends).toHaveLength(50);
    for (const f of appends) expect(f).toMatchObject({ direction: 'out', data: { type: 'input_audio_buffer.append', audio: { $audio: pcm } } });
    const deltas = frames.filter((f) => f.kind === 'json' && f.type === 'response.output_audio.delta');
    expect(deltas).toHaveLength(DELTAS);
    for (const f of deltas) expect(f).toMatchObject({ direction: 'in', data: { item_id: 'item_1', delta: { $audio: answer } } });
    const binaries = frames.filter((f) => f.kind === 'binary');
    expect(binaries.map((f) => [f.direction, f.kind === 'binary' && f.audio])).toEqual([
      ['out', pcm],
      ['in', answer],
    ]);
    // Plain values: what a structured clone (Electron's parentPort) or JSON carries as is.
    for (const f of binaries) expect(Object.getPrototypeOf(f.kind === 'binary' && f.audio)).toBe(Object.prototype);
    expect(pcm.head).toBe(createHash('sha256').update(PCM).digest('hex').slice(0, 16));
  });
});

describe('LazyAudioSummary', () => {
  it('computes once, when first read, and serialises as the plain summary', () => {
    let made = 0;
    const lazy = new LazyAudioSummary(() => (made++, { bytes: 10, durationMs: 1, head: 'abcd' }));
    expect(made).toBe(0);
    expect(lazy.computed).toBe(false);
    expect(JSON.parse(JSON.stringify({ $audio: lazy }))).toEqual({ $audio: { bytes: 10, durationMs: 1, head: 'abcd' } });
    expect([lazy.bytes, lazy.durationMs, lazy.head]).toEqual([10, 1, 'abcd']);
    expect(made).toBe(1);
  });
});
