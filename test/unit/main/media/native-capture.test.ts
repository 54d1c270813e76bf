// The `native-capture` kind: Capture inside the media process on its audio backend (a paced
// device here), 20 ms frames out on `pcm` with their capture time, a stop at `maxMs`, and a
// device pulled out mid-recording ending the session with the device's explanation.
import { afterEach, describe, expect, it } from 'vitest';
import { MediaProcess, type ControlPort } from '../../../../main/media/media-process';
import { SessionKinds } from '../../../../main/media/session-kinds';
import { nativeCaptureKind } from '../../../../main/media/native-capture-session';
import { createPacedBackend, type PacedBackend } from '../../../../main/audio/paced-backend';
import type { FromMedia } from '../../../../main/media/protocol';
import { decodeFrame, encodeFrame, FrameKind } from '../../../../shared/media-frames/frame';

let media: MediaProcess | null = null;
afterEach(async () => {
  await media?.dispose();
  media = null;
});

/** A ramp at 16 kHz, so each frame's samples say where in the audio it is. */
const ramp = new Int16Array(16_000 * 5).map((_, i) => i % 30_000);

function run(backend: PacedBackend) {
  const sent: FromMedia[] = [];
  const pages: Uint8Array[] = [];
  let deliver: (m: unknown) => void = () => {};
  const control: ControlPort = { send: (m) => sent.push(m), onMessage: (l) => void (deliver = (m) => l(m, [])) };
  media = new MediaProcess({ control, kinds: new SessionKinds().register(nativeCaptureKind), audioBackend: async () => ({ ok: true, value: backend }) });
  const page = media.addChannel('page', { write: (bytes) => void pages.push(bytes), buffered: () => 0, close: () => {} });
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 1000 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  };
  return { sent, pages, page, deliver: (m: unknown) => deliver(m), until };
}

describe('native-capture media session', () => {
  it('sends every 20 ms frame of the device, in order and whole, and ends itself at maxMs', async () => {
    const backend = createPacedBackend({ inputs: [{ name: 'Mic', sampleRate: 16_000, channels: 1, source: ramp }] });
    const { sent, deliver, until } = run(backend);
    deliver({ t: 'start', id: 1, sessionId: 's1', kind: 'native-capture', options: { maxMs: 400, timings: true, waitForSubscriber: false } });
    await until(() => sent.some((m) => m.t === 'ended'));
    const reply = sent.find((m) => m.t === 'reply');
    expect(reply).toMatchObject({ reply: { ok: true, value: { streams: { pcm: expect.any(Number), levels: expect.any(Number) } } } });
    expect(sent.find((m) => m.t === 'event' && m.type === 'device')).toMatchObject({ data: { name: 'Mic' } });
    expect(sent.find((m) => m.t === 'event' && m.type === 'ended-at-limit')).toMatchObject({ data: { frames: 20, ms: 400 } });
    expect(sent.find((m) => m.t === 'ended')).toEqual({ t: 'ended', sessionId: 's1' });
    const timings = sent.filter((m) => m.t === 'event' && m.type === 'timings').flatMap((m) => (m as { data: { captureSent: number[] } }).data.captureSent);
    expect(timings).toHaveLength(40);
    for (let i = 0; i < timings.length; i += 2) expect(timings[i + 1]).toBeGreaterThanOrEqual(timings[i]);
  });

  it('hands frames to a subscribed page with the audio intact', async () => {
    const backend = createPacedBackend({ inputs: [{ name: 'Mic', sampleRate: 16_000, channels: 1, source: ramp }] });
    const { sent, pages, page, deliver, until } = run(backend);
    deliver({ t: 'start', id: 1, sessionId: 's2', kind: 'native-capture', options: { maxMs: 200 } });
    await until(() => sent.some((m) => m.t === 'reply'));
    const pcm = (sent.find((m) => m.t === 'reply') as { reply: { value: { streams: { pcm: number } } } }).reply.value.streams.pcm;
    page.receive(encodeFrame({ kind: FrameKind.Subscribe, streamId: pcm, seq: 0, timestamp: 0, payload: new Uint8Array(0) }));
    await until(() => sent.some((m) => m.t === 'ended'));
    const frames = pages.flatMap((b) => {
      const d = decodeFrame(b);
      return d.ok && d.frame.streamId === pcm && d.frame.kind === FrameKind.Audio ? [d.frame.payload] : [];
    });
    expect(frames.length).toBeGreaterThan(0);
    const samples = frames.flatMap((p) => [...new Int16Array(p.slice().buffer)]);
    // Nothing was taken before the page listened: the session ended at its 10 frames, all of them the page's.
    expect(frames).toHaveLength(10);
    // Contiguous: each sample one more than the last (the ramp).
    for (let i = 1; i < samples.length; i++) expect(samples[i] - samples[i - 1]).toBe(1);
  });

  it('a microphone pulled out mid-recording ends the session with its explanation', async () => {
    const backend = createPacedBackend({ inputs: [{ name: 'Mic', sampleRate: 16_000, channels: 1, source: ramp }] });
    const { sent, deliver, until } = run(backend);
    deliver({ t: 'start', id: 1, sessionId: 's3', kind: 'native-capture', options: { maxMs: 60_000, waitForSubscriber: false } });
    await until(() => sent.some((m) => m.t === 'reply'));
    backend.unplug('Mic');
    await until(() => sent.some((m) => m.t === 'ended'));
    expect(sent.find((m) => m.t === 'ended')).toEqual({
      t: 'ended',
      sessionId: 's3',
      error: { code: 'unsupported', message: 'The microphone "Mic" was disconnected. Plug it back in or pick another one. The recording stopped there.' },
    });
  });
});
