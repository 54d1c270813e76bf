// The realtime-call media session run in-process against a scripted service socket: the order of
// work on its one event loop, as the send jitter needs it (test/bench/realtime-call.ts). A burst of
// answer deltas is read one per loop turn (onePerTurn in the reading loop, not only the helper),
// and a microphone push writes its appends before the meter and the 100 ms piece up to main.
// Order only, never times. A scripted socket (not the sandbox): the burst must reach the session
// in one read, which only a server that writes it at once guarantees.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { realtimeCallKind, RealtimeCallOptionsSchema } from '../../../../main/media/realtime-call-session';
import type { InboundInfo, MediaSessionContext } from '../../../../main/media/session-kinds';
import { FrameKind, type MediaFrame } from '../../../../shared/media-frames/frame';
import type { ReceiverCounters } from '../../../../shared/media-frames/receiver';
import { startWsServer, until } from '../api/ws-server';

const KEY = 'sk-session-test-123456';
const DELTAS = 10;

function delta(i: number): string {
  // 10 ms of 24 kHz PCM16, a ramp (not silence).
  const pcm = Buffer.alloc(480);
  for (let s = 0; s < 240; s++) pcm.writeInt16LE((s * 50 + i) % 8000, s * 2);
  return JSON.stringify({ type: 'response.output_audio.delta', event_id: `ev_${i}`, response_id: 'resp_1', item_id: 'item_1', output_index: 0, content_index: 0, delta: pcm.toString('base64') });
}

/** A context that logs, in order, what the session does on its loop. */
function fakeContext(log: string[]) {
  let mic: ((frame: MediaFrame, info: InboundInfo) => void) | null = null;
  let ids = 0;
  let ticking = false;
  const ctx: MediaSessionContext = {
    sessionId: 'rt-test',
    now: () => performance.now(),
    openOutput: (name) => ({ id: ids++, send: () => void log.push(`out:${name}`), subscribers: () => 1 }),
    openInput: (name, onFrame) => {
      if (name === 'mic') mic = onFrame;
      return { id: ids++, stats: () => ({}) as ReceiverCounters };
    },
    event: (type, data) => {
      const message = (data as { message?: { type?: string } } | undefined)?.message;
      log.push(type === 'server' ? `server:${message?.type}` : `event:${type}`);
      // From the first delta on, a timer-like task re-armed each turn (the microphone's frame stands for it).
      if (message?.type === 'response.output_audio.delta' && !ticking) {
        ticking = true;
        let n = 0;
        const tick = (): void => {
          log.push('tick');
          if (++n < 4 * DELTAS) setImmediate(tick);
        };
        setImmediate(tick);
      }
    },
    end: () => undefined,
    log: () => undefined,
    audioBackend: async () => ({ ok: false, error: { code: 'unsupported', message: 'no audio here' } }) as never,
  };
  return { ctx, mic: (frame: MediaFrame) => mic!(frame, {}) };
}

describe('realtime-call session: work order on the media loop', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('reads a burst of answer deltas one per loop turn, and writes a microphone push\'s appends before its meter and mic-audio', async () => {
    const srv = await startWsServer((ws) => {
      ws.on('message', (data) => {
        if (!String(data).includes('"session.update"')) return;
        // The whole burst in one write: the session's socket reads it in one go.
        const raw = (ws as unknown as { _socket: { cork(): void; uncork(): void } })._socket;
        raw.cork();
        for (let i = 0; i < DELTAS; i++) ws.send(delta(i));
        process.nextTick(() => raw.uncork());
      });
    });
    cleanups.push(() => srv.close());
    const log: string[] = [];
    const { ctx, mic } = fakeContext(log);
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

    await until(() => log.filter((l) => l === 'server:response.output_audio.delta').length === DELTAS, 'the burst read');
    // Every delta but the last has a turn of the loop (a tick) before the next one.
    const deltas = log.flatMap((l, i) => (l === 'server:response.output_audio.delta' ? [i] : []));
    for (let k = 1; k < deltas.length; k++) expect(log.slice(deltas[k - 1], deltas[k]), `between deltas ${k - 1} and ${k}`).toContain('tick');

    // The microphone: 100 ms at once (5 frames). Appends are what the socket writes; the meter
    // (`levels`) and the piece up to main (`mic-audio`) must come after all five.
    const send = WebSocket.prototype.send;
    vi.spyOn(WebSocket.prototype, 'send').mockImplementation(function (this: WebSocket, ...args: Parameters<WebSocket['send']>) {
      if (typeof args[0] === 'string' && args[0].includes('input_audio_buffer.append')) log.push('append');
      return send.apply(this, args);
    });
    while (log.filter((l) => l === 'tick').length < 4 * DELTAS) await new Promise((r) => setImmediate(r));
    const from = log.length;
    const pcm = new Int16Array(2400).map((_, i) => Math.round(8000 * Math.sin(i / 5)));
    mic({ kind: FrameKind.Audio, streamId: 0, seq: 0, timestamp: performance.now(), payload: new Uint8Array(pcm.buffer) });
    await until(() => log.slice(from).includes('event:mic-audio') && log.slice(from).includes('out:levels'), 'the meter and the mic piece');
    const after = log.slice(from).filter((l) => l === 'append' || l === 'out:levels' || l === 'event:mic-audio');
    expect(after.filter((l) => l === 'append')).toHaveLength(5);
    expect(after.slice(0, 5)).toEqual(['append', 'append', 'append', 'append', 'append']);
    expect(after.slice(5)).toContain('event:mic-audio');
  });
});
