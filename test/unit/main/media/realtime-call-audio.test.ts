// The realtime-call media session's audio, sample for sample, against a scripted service socket:
// the microphone's pushes (uneven sizes, as a page or a device gives them) reach the service as
// 20 ms appends and main as `mic-audio` exactly; the answer's deltas reach main as `model-audio`
// exactly (decoded from base64 PCM16). Values only, never times.
import { afterEach, describe, expect, it } from 'vitest';
import { realtimeCallKind, RealtimeCallOptionsSchema } from '../../../../main/media/realtime-call-session';
import type { InboundInfo, MediaSessionContext } from '../../../../main/media/session-kinds';
import { FrameKind, type MediaFrame } from '../../../../shared/media-frames/frame';
import type { ReceiverCounters } from '../../../../shared/media-frames/receiver';
import { startWsServer, until } from '../api/ws-server';

const KEY = 'sk-session-test-123456';
const pcmOf = (b64: string) => {
  const bytes = Buffer.from(b64, 'base64');
  return Array.from(new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2));
};

describe('realtime-call session: audio both ways, exact', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('appends and mic-audio carry the pushed samples; model-audio carries the deltas\' samples', async () => {
    // The answer: 3 deltas of 10 ms at 24 kHz, signed samples across the range (both bytes matter).
    const answer = Array.from({ length: 3 }, (_, d) => Int16Array.from({ length: 240 }, (_, s) => ((s * 977 + d * 131) % 65536) - 32768));
    const appended: number[] = [];
    const srv = await startWsServer((ws) => {
      ws.on('message', (data) => {
        const m = JSON.parse(String(data)) as { type: string; audio?: string };
        if (m.type === 'input_audio_buffer.append') appended.push(...pcmOf(m.audio!));
        if (m.type !== 'session.update') return;
        answer.forEach((pcm, i) => ws.send(JSON.stringify({ type: 'response.output_audio.delta', event_id: `ev_${i}`, response_id: 'resp_1', item_id: 'item_1', output_index: 0, content_index: 0, delta: Buffer.from(pcm.buffer).toString('base64') })));
        ws.send(JSON.stringify({ type: 'response.output_audio.done', event_id: 'ev_done', response_id: 'resp_1', item_id: 'item_1', output_index: 0, content_index: 0 }));
      });
    });
    cleanups.push(() => srv.close());
    let mic: ((frame: MediaFrame, info: InboundInfo) => void) | null = null;
    const micAudio: number[] = [];
    const modelAudio: number[] = [];
    const ctx: MediaSessionContext = {
      sessionId: 'rt-audio',
      now: () => performance.now(),
      openOutput: (_name) => ({ id: 0, send: () => undefined, subscribers: () => 1 }),
      openInput: (name, onFrame) => {
        if (name === 'mic') mic = onFrame;
        return { id: 1, stats: () => ({}) as ReceiverCounters };
      },
      event: (type, data) => {
        if (type === 'mic-audio') micAudio.push(...pcmOf((data as { pcm: string }).pcm));
        if (type === 'model-audio') modelAudio.push(...pcmOf((data as { pcm: string }).pcm));
      },
      end: () => undefined,
      log: () => undefined,
      audioBackend: async () => ({ ok: false, error: { code: 'unsupported', message: 'no audio here' } }) as never,
    };
    const options = RealtimeCallOptionsSchema.parse({
      connection: { baseUrl: srv.baseUrl, apiKey: KEY },
      auth: { kind: 'key' },
      query: {},
      session: { type: 'realtime' },
      formats: { input: { type: 'audio/pcm', rate: 24_000 }, output: { type: 'audio/pcm', rate: 24_000 } },
      microphone: { kind: 'page' },
      output: { kind: 'none' },
    });
    const session = await realtimeCallKind.start(ctx, options);
    cleanups.push(() => session.stop());

    // 150 ms in pushes of uneven sizes (whole 20 ms frames, parts of frames, several at once).
    const spoken = Int16Array.from({ length: 3600 }, (_, i) => ((i * 7919) % 65536) - 32768);
    let at = 0;
    for (const [k, n] of [480, 100, 380, 1, 959, 1200, 480].entries()) {
      const piece = spoken.slice(at, at + n);
      at += n;
      mic!({ kind: FrameKind.Audio, streamId: 0, seq: k, timestamp: performance.now(), payload: new Uint8Array(piece.buffer) }, {});
      await new Promise((r) => setImmediate(r));
    }
    const whole = Array.from(spoken.subarray(0, 3360)); // 7 whole frames of 480 (the rest waits for more)
    await until(() => appended.length === whole.length, 'the appends at the service');
    expect(appended).toEqual(whole);
    await until(() => modelAudio.length === 720, 'the answer heard');
    expect(modelAudio).toEqual(answer.flatMap((pcm) => Array.from(pcm)));
    await session.stop();
    expect(micAudio).toEqual(whole);
  });
});
