import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../../../main/api/client';
import { openEventSocket, type CapturedFrame } from '../../../../main/api/event-socket';
import { parseRealtimeServerEvent, type RealtimeServerEvent } from '../../../../shared/wire/realtime';
import { startWsServer, until } from './ws-server';

// prepareMessage (its walks, the base64 decode and sha256 of the summary) is watched: an audio append
// (a microphone's 20 ms frame, 50 a second) must be captured without them.
const spies = vi.hoisted(() => ({ prepare: 0 }));
vi.mock('../../../../main/api/socket-capture', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../../main/api/socket-capture')>();
  return {
    ...real,
    prepareMessage: (...args: Parameters<typeof real.prepareMessage>) => {
      spies.prepare++;
      return real.prepareMessage(...args);
    },
  };
});

const KEY = 'sk-voice-key-123456';

describe('event socket: audio appends', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('captures an append from its length (bytes, duration, in order) without prepareMessage or a hash; other messages still go through it', async () => {
    const got: string[] = [];
    const srv = await startWsServer((ws) => ws.on('message', (d) => got.push(String(d))));
    const client = new ApiClient({ baseUrl: srv.baseUrl, apiKey: KEY });
    cleanups.push(() => srv.close(), () => client.dispose());
    const frames: CapturedFrame[] = [];
    const opened = await openEventSocket<RealtimeServerEvent>(client, '/v1/realtime', {
      parse: parseRealtimeServerEvent,
      onFrame: (f) => frames.push(f),
      limits: { keepAliveIntervalMs: 0 },
      audio: { out: { codec: 'pcm', sampleRate: 24000 } },
    });
    if (!opened.ok) throw new Error(opened.error.message);
    const socket = opened.socket;
    cleanups.push(() => void socket.terminate());

    const pcm = Buffer.alloc(960, 3); // 20 ms at 24 kHz
    const mulawLike = Buffer.alloc(161, 5); // a length whose base64 is padded
    expect((await socket.sendJson({ type: 'session.update', session: { instructions: `key ${KEY}` } })).ok).toBe(true);
    const before = { ...spies };
    for (let i = 0; i < 50; i++) expect((await socket.sendJson({ type: 'input_audio_buffer.append', audio: pcm.toString('base64') })).ok).toBe(true);
    expect((await socket.sendJson({ type: 'input_audio_buffer.append', audio: mulawLike.toString('base64') })).ok).toBe(true);
    expect(spies).toEqual(before);
    // An append with anything else in it (a field that could hold a secret) is prepared as any message.
    expect((await socket.sendJson({ type: 'input_audio_buffer.append', audio: pcm.toString('base64'), note: KEY })).ok).toBe(true);
    expect(spies.prepare).toBe(before.prepare + 1);

    await until(() => got.length === 53, 'all 53 messages at the server');
    expect(JSON.parse(got[1]!).audio).toBe(pcm.toString('base64')); // sent as given
    await socket.close();
    expect(frames.map((f) => f.seq)).toEqual(Array.from({ length: 53 }, (_, i) => i));
    expect(frames[1]).toMatchObject({ direction: 'out', kind: 'json', type: 'input_audio_buffer.append', data: { type: 'input_audio_buffer.append', audio: { $audio: { bytes: 960, durationMs: 20, head: null } } } });
    expect(frames[51]).toMatchObject({ data: { audio: { $audio: { bytes: 161 } } } });
    expect(frames[52]).toMatchObject({ data: { note: '***', audio: { $audio: { bytes: 960, head: expect.stringMatching(/^[0-9a-f]{16}$/) } } } });
    expect(JSON.stringify(frames)).not.toContain(KEY);
  });
});
