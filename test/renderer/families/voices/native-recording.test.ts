// Voices: cloning from a native microphone recording. The picker chooses a native device; Record
// starts main's `voice-recording` live session (the media process captures the device) and the
// clip is built from the frames of its `pcm` stream read from the media channel, with the level
// meter from `levels` and the same 120 s countdown. A device failing mid-recording is explained.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { parseWav } from '@shared/audio/wav';
import type { MediaFrame } from '@shared/media-frames/frame';
import type { VoiceRecordingSnapshot } from '@shared/voice-recording';
import VoicesView from '@/families/voices/views/VoicesView.vue';
import { button, mountWithApp, type Mounted } from '../../mount-app';

const listeners = new Map<number, (frame: MediaFrame) => void>();
vi.mock('@/bridge/media', () => ({
  mediaChannel: () => ({
    onFrame: (stream: number, cb: (frame: MediaFrame) => void) => {
      listeners.set(stream, cb);
      return () => listeners.delete(stream);
    },
  }),
}));

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  listeners.clear();
});

const SNAP: VoiceRecordingSnapshot = { status: 'recording', device: 'USB Mic', sampleRate: 16_000, streams: { pcm: 7, levels: 8 }, end: null };
const second = (seq: number): MediaFrame => ({ kind: 1, streamId: 7, seq, timestamp: 0, payload: new Uint8Array(new Int16Array(16_000).fill(1000).buffer) });
const levels = (db: number): MediaFrame => {
  const payload = new Uint8Array(8);
  new DataView(payload.buffer).setFloat32(0, db);
  new DataView(payload.buffer).setFloat32(4, db);
  return { kind: 2, streamId: 8, seq: 0, timestamp: 0, payload };
};

async function recordNative(): Promise<string> {
  const staged: File[] = [];
  m = await mountWithApp(VoicesView, { route: '/voices', props: { stage: async (file: File) => (staged.push(file), { ref: 'ref_BBBBBBBBBBBBBBBBBBBBBB', name: file.name, size: file.size, type: file.type }) } });
  await flushPromises();
  const select = document.querySelector('section[aria-label="Clone a voice"] select[data-test="audio-device-picker"]') as HTMLSelectElement;
  expect([...select.options].map((o) => o.text)).toContain('USB Mic — ALSA, 1 ch, 48 kHz');
  select.value = 'native:ALSA:USB Mic';
  select.dispatchEvent(new Event('change'));
  await flushPromises();
  const start = m.fake.live.start;
  let id = '';
  m.fake.live.start = async (input) => {
    const r = await start(input);
    id = r.id;
    m.fake.controls.live.sessions.get(r.id)!.snapshot = structuredClone(SNAP);
    return r;
  };
  button(m.wrapper, 'Record from the microphone').click();
  await flushPromises();
  (globalThis as { __staged?: File[] }).__staged = staged;
  return id;
}

describe('Voices: recording from a native microphone', { timeout: 30_000 }, () => {
  it('records the media process’s frames with the level meter and the 120 s countdown, then clones from the WAV', async () => {
    await recordNative();
    expect(m.fake.controls.live.sessions.size).toBe(1);
    expect([...m.fake.controls.live.sessions.values()][0].summary.kind).toBe('voice-recording');
    listeners.get(8)!(levels(-6));
    for (let s = 0; s < 30; s++) listeners.get(7)!(second(s));
    await flushPromises();
    expect(document.querySelector('[aria-label="Time left"]')?.textContent).toBe('90 s left');
    expect(Number(document.querySelector('[role="meter"]')?.getAttribute('aria-valuenow'))).toBe(90);
    for (let s = 30; s < 125; s++) listeners.get(7)?.(second(s));
    await flushPromises();
    // The limit stopped the session (for every window) and the clip is the 120 s kept.
    expect(m.fake.controls.live.sessions.size).toBe(0);
    expect(document.querySelector('[aria-label="Clip"]')?.textContent).toMatch(/recording-.*\.wav/);
    const form = document.querySelector('section[aria-label="Clone a voice"]')!;
    const name = form.querySelector('[name="name"]') as HTMLInputElement;
    name.value = 'Me';
    name.dispatchEvent(new Event('input'));
    await flushPromises();
    button(m.wrapper, 'Clone voice').click();
    await flushPromises();
    const staged = (globalThis as { __staged?: File[] }).__staged!;
    expect(staged).toHaveLength(1);
    const wav = parseWav(new Uint8Array(await staged[0]!.arrayBuffer()));
    expect(wav.ok && wav.value.durationMs).toBe(120_000);
  });

  it('says why when the native microphone fails mid-recording, keeping what was recorded', async () => {
    const id = await recordNative();
    for (let s = 0; s < 3; s++) listeners.get(7)!(second(s));
    m.fake.controls.live.emit(id, { type: 'failed', message: 'The microphone "USB Mic" was disconnected. Plug it back in or pick another one. The recording stopped there.' });
    await flushPromises();
    // The device's own words, then what was kept: the three seconds sent before it failed.
    expect(document.querySelector('[role="alert"]')?.textContent).toBe('The microphone "USB Mic" was disconnected. Plug it back in or pick another one. The recording stopped there. The 3.0 s recorded before are kept as the clip.');
    expect(document.querySelector('[aria-label="Clip"]')?.textContent).toMatch(/recording-.*\.wav/);
  });
});
