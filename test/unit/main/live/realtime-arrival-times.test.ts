/**
 * The realtime kind (main/live/realtime.ts) places the service's messages on the session clock at
 * the time they ARRIVED from the socket (the media process's event-socket client stamps each frame),
 * not when main got round to them: a busy main (here its clock moved on before the media events
 * were handled) must not shift the timeline's server events or the marks folded from them
 * (response_done). A fake media plane and recorder; values only.
 */
import { describe, expect, it } from 'vitest';
import type { MediaPlaneEvent } from '../../../../main/media/media-plane';
import { createLiveRegistry } from '../../../../main/live/registry';
import { realtimeLiveKind } from '../../../../main/live/realtime';
import { SecretScrubber } from '../../../../main/api/secret-scrubber';
import type { RealtimeCallEvent } from '../../../../shared/realtime-call';
import type { LiveAttachChunk } from '../../../../shared/contract/live';

function fakes() {
  const listeners = new Set<(e: MediaPlaneEvent) => void>();
  const clock = { main: 0 };
  const marks: Array<{ type: string; t: number | undefined }> = [];
  const rec = {
    openTrack: async () => 'trk',
    event: () => undefined,
    audio: () => undefined,
    mark: (type: string, o: { t?: number } = {}) => void marks.push({ type, t: o.t }),
    sessionMs: () => clock.main,
    close: async () => undefined,
    abort: async () => undefined,
  };
  const deps = {
    media: {
      startSession: async (id: string) => ({ ok: true as const, value: { sessionId: id, kind: 'realtime-call', streams: {} } }),
      stopSession: async () => ({ ok: true as const, value: null }),
      controlSession: async () => ({ ok: true as const, value: null }),
      onEvent: (l: (e: MediaPlaneEvent) => void) => (listeners.add(l), () => void listeners.delete(l)),
    },
    recordings: { open: () => rec },
    connection: () => ({ id: 'c1', name: 'Sandbox', isSandbox: true, baseUrl: 'http://127.0.0.1:1', apiKey: 'sk-test', scrubber: SecretScrubber.NONE }),
  };
  return { deps, clock, marks, say: (e: MediaPlaneEvent) => listeners.forEach((l) => l(e)) };
}

describe('realtime kind: arrival times', () => {
  it("puts a service message, and the marks it makes, at the time it arrived, however late main handles it", async () => {
    const f = fakes();
    const registry = createLiveRegistry({ kinds: [realtimeLiveKind(f.deps as never) as never], onChange: () => {} });
    const id = await registry.start('realtime', { microphone: { kind: 'none' }, output: { kind: 'none' } }, { origin: 'window' });
    const chunks: LiveAttachChunk[] = [];
    await registry.attach(id, { deliver: (c) => void chunks.push(c), ended: () => undefined });
    const mediaId = `rt-${id}-1`;
    const event = (name: string, at: number, data: unknown) => f.say({ type: 'session-event', sessionId: mediaId, event: name, at, data });

    // Media clock 1000 is session 0 (an event handled at once).
    f.clock.main = 0;
    event('opened', 1000, { streams: {} });
    // Main was busy for 400 ms: a speech_started that arrived at media 1005 is handled at session 400.
    f.clock.main = 400;
    event('server', 1010, { message: { type: 'input_audio_buffer.speech_started', item_id: 'u1', audio_start_ms: 0 }, at: 1005 });
    event('mark', 1010, { mark: 'speech_started', itemId: 'u1', at: 1005 });
    // A response.done that arrived at media 1300, handled at session 900.
    f.clock.main = 900;
    event('server', 1310, { message: { type: 'response.done', response: { id: 'r1', status: 'completed', output: [] } }, at: 1300 });

    const events = chunks.flatMap((c) => (c.type === 'event' ? [c.event as RealtimeCallEvent] : []));
    const wire = events.flatMap((e) => (e.type === 'wire' && e.direction === 'in' ? [[e.eventType, e.t]] : []));
    expect(wire).toEqual([
      ['input_audio_buffer.speech_started', 5],
      ['response.done', 300],
    ]);
    expect(f.marks.filter((m) => m.type === 'speech_started' || m.type === 'response_done')).toEqual([
      { type: 'speech_started', t: 5 },
      { type: 'response_done', t: 300 },
    ]);
    await registry.stop(id);
  });
});
