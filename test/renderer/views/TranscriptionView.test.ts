/** The Transcription view with the fake workbench: a drop, a Files id, the drop router's ?ref=, a stored run, and errors. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import type { FileRef } from '@shared/contract/user-files';
import { mountWithApp, type Mounted } from '../mount-app';
import { makeGalleryItem } from '../fake-workbench';
import { FakeWaveSurfer } from '../components/audio/fake-wavesurfer';

vi.mock('wavesurfer.js', () => import('../components/audio/fake-wavesurfer'));

// The page's staging is tested on its own; here it hands back references.
vi.mock('@/bridge/user-files', () => ({
  fileRefsFrom: async (files: File[]) => files.map((f, i): FileRef => ({ ref: `ref_${'T'.repeat(19)}${i}`, name: f.name, size: f.size, type: f.type })),
}));
const { default: TranscriptionView } = await import('@/families/transcription/views/TranscriptionView.vue');

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  FakeWaveSurfer.instances = [];
});

const answer = {
  result: {
    text: 'alpha beta gamma delta',
    duration: 4.25,
    words: [
      { text: 'alpha', start: 0.1, end: 0.5, speaker: 0, confidence: 0.93 },
      { text: 'beta', start: 0.6, end: 1.0, speaker: 0, confidence: 0.41 },
      { text: 'gamma', start: 2.5, end: 3.0, speaker: 1, confidence: 0.88 },
      { text: 'delta', start: 3.1, end: 3.6, speaker: 1, confidence: 0.9 },
    ],
  },
  audio: makeGalleryItem({ id: 'gal_audio0001', kind: 'audio', origin: 'input', name: 'talk.wav', mime: 'audio/wav' }),
  durationMs: 800,
};

/** Lets the fake's stream (a timer, then promises) run to its end. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setTimeout(r, 2));
    await flushPromises();
  }
}

function drop(target: Element, files: File[]): void {
  const event = new Event('drop', { bubbles: true, cancelable: true }) as Event & { dataTransfer: unknown };
  event.dataTransfer = { files, types: ['Files'] };
  target.dispatchEvent(event);
}

describe('TranscriptionView', () => {
  it('a dropped WAV: sent with the options as a reference, then words with confidence, segments and speakers, the kept audio playable', async () => {
    m = await mountWithApp(TranscriptionView, { route: '/transcription' });
    m.fake.controls.transcription.answer = answer;
    await m.wrapper.find('[data-testid="language"]').setValue('en');
    drop(m.wrapper.find('[data-testid="drop-zone"]').element, [new File([new Uint8Array(64)], 'talk.wav', { type: 'audio/wav' })]);
    await flushPromises();
    await settle();
    const sent = m.fake.controls.calls.find((c) => c.method === 'transcription.transcribe')!.input;
    expect(sent).toEqual({ source: { kind: 'ref', ref: `ref_${'T'.repeat(19)}0` }, language: 'en', diarize: true });
    const words = m.wrapper.findAll('[data-testid="word"]');
    expect(words.map((w) => w.text())).toEqual(['alpha', 'beta', 'gamma', 'delta']);
    expect(words[1]!.attributes('title')).toBe('0.60–1.00 s · confidence 41 %');
    expect(words[1]!.classes()).toContain('unsure');
    const segments = m.wrapper.findAll('[data-testid="segment"]');
    expect(segments).toHaveLength(2);
    expect(segments[0]!.classes()).toContain('speaker-0');
    expect(segments[1]!.classes()).toContain('speaker-1');
    expect(m.wrapper.find('[data-testid="speakers"]').text()).toBe('Speaker 1Speaker 2');
    // The kept audio plays in the waveform player.
    expect(FakeWaveSurfer.instances).toHaveLength(1);
    const player = FakeWaveSurfer.instances[0]!;
    expect(player.options.url).toBe(answer.audio.url.url);
    // The word being played is lit, following the player's time.
    player.emit('ready', 4.25);
    player.emit('timeupdate', 2.7);
    await flushPromises();
    expect(m.wrapper.findAll('.word.lit').map((w) => w.text())).toEqual(['gamma']);
    player.emit('timeupdate', 0.7);
    await flushPromises();
    expect(m.wrapper.findAll('.word.lit').map((w) => w.text())).toEqual(['beta']);
    // Clicking a word seeks the player there, and that word lights.
    await m.wrapper.findAll('[data-testid="word"]')[3]!.trigger('click');
    await flushPromises();
    expect(player.calls.filter((c) => c[0] === 'setTime')).toEqual([['setTime', 3.1]]);
    expect(m.wrapper.findAll('.word.lit').map((w) => w.text())).toEqual(['delta']);
    expect(m.wrapper.find('[data-testid="live-section"] [aria-label="Live transcription"]').exists()).toBe(true);
  });

  it('a dropped file whose audio could not be kept plays from the page’s own copy', async () => {
    m = await mountWithApp(TranscriptionView, { route: '/transcription' });
    m.fake.controls.transcription.answer = { ...answer, audio: null };
    const file = new File([new Uint8Array(64)], 'talk.wav', { type: 'audio/wav' });
    drop(m.wrapper.find('[data-testid="drop-zone"]').element, [file]);
    await settle();
    // A Blob, decoded in place: the CSP refuses a fetch of a blob: URL.
    const player = FakeWaveSurfer.instances.at(-1)!;
    expect(player.calls.find((c) => c[0] === 'loadBlob')?.[1]).toBe(file);
    expect(m.wrapper.find('[data-testid="result"]').text()).not.toContain('nothing to play here');
  });

  it('one column per channel', async () => {
    m = await mountWithApp(TranscriptionView, { route: '/transcription' });
    m.fake.controls.transcription.answer = {
      ...answer,
      result: { text: 'l r', channels: [{ channel_index: 0, text: 'left', words: [{ text: 'left', start: 0, end: 1 }] }, { channel_index: 1, text: 'right', words: [{ text: 'right', start: 0, end: 1 }] }] },
    };
    drop(m.wrapper.find('[data-testid="drop-zone"]').element, [new File([new Uint8Array(8)], 'stereo.wav', { type: 'audio/wav' })]);
    await settle();
    expect(m.wrapper.find('[data-testid="channel-0"]').text()).toContain('left');
    expect(m.wrapper.find('[data-testid="channel-1"]').text()).toContain('right');
  });

  it('a Files id goes as a file source; a broken field is shown and nothing is sent', async () => {
    m = await mountWithApp(TranscriptionView, { route: '/transcription' });
    m.fake.controls.transcription.answer = { ...answer, audio: null };
    await m.wrapper.find('input[type="checkbox"]:not([data-testid])').setValue(true); // format without a language
    expect(m.wrapper.find('[data-testid="problems"]').text()).toContain('needs a language');
    await m.wrapper.find('[data-testid="remote"]').setValue('file_abc');
    await m.wrapper.find('form.remote').trigger('submit');
    await flushPromises();
    expect(m.fake.controls.calls.some((c) => c.method === 'transcription.transcribe')).toBe(false);
    await m.wrapper.find('[data-testid="language"]').setValue('en');
    await m.wrapper.find('form.remote').trigger('submit');
    await settle();
    expect(m.fake.controls.calls.find((c) => c.method === 'transcription.transcribe')!.input).toMatchObject({ source: { kind: 'file', fileId: 'file_abc' }, language: 'en', format: true });
    expect(m.wrapper.find('[data-testid="result"]').text()).toContain('nothing to play here');
  });

  it('the drop router’s ?ref= is sent at once; the service’s error is shown', async () => {
    const ref = `ref_${'R'.repeat(20)}`;
    m = await mountWithApp(TranscriptionView, { route: `/transcription?ref=${ref}&name=memo.mp3`, fake: {} });
    m.fake.controls.transcription.answer = { code: 'invalid_input', message: 'The service could not read memo.mp3: bad header. It reads WAV, MP3, FLAC or Ogg/Opus files.' };
    await settle();
    // The route was read before the test set the answer: send again from the route.
    await m.router.push(`/transcription?ref=${ref}&name=memo2.mp3`);
    await settle();
    expect(m.fake.controls.calls.filter((c) => c.method === 'transcription.transcribe').map((c) => (c.input as { source: unknown }).source)).toContainEqual({ kind: 'ref', ref });
    expect(document.body.textContent).toContain('It reads WAV, MP3, FLAC or Ogg/Opus files.');
  });

  it('?run= shows a recorded run', async () => {
    m = await mountWithApp(TranscriptionView, { route: '/transcription' });
    m.fake.controls.transcription.results.set('run-old', { ...answer, runId: 'run-old', filename: 'old.wav' });
    await m.router.push('/transcription?run=run-old');
    await flushPromises();
    expect(m.wrapper.find('[data-testid="result"]').text()).toContain('old.wav');
    expect(m.wrapper.findAll('[data-testid="word"]')).toHaveLength(4);
  });
});
