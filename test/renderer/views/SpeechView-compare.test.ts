/**
 * The Speech playground's kept draft, compare mode and the live waveform, with the fake
 * workbench: the form comes back from a kept draft (a bad field falls back) and is saved as typed;
 * "Compare voices" speaks the same text with two voices one after the other, each result with its
 * waveform player, characters, facts and Save; a stream shows its waveform growing as chunks
 * arrive and lights the characters the page's player has played.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { useSpeechStore } from '@/families/speech/stores/speech';
import { PLAYED_POLL_MS, PLAYED_STALL_MS } from '@/families/speech/stores/speech-run';
import { DRAFT_MAX_WAIT_MS } from '@/composables/use-draft';
import { makeGalleryItem } from '../fake-workbench';
import { mountWithApp, type Mounted } from '../mount-app';
import { FakeWaveSurfer } from '../components/audio/fake-wavesurfer';

vi.mock('wavesurfer.js', () => import('../components/audio/fake-wavesurfer'));

const { default: SpeechView } = await import('@/families/speech/views/SpeechView.vue');

let m: Mounted;
beforeEach(() => (FakeWaveSurfer.instances = []));
afterEach(() => {
  m?.wrapper.unmount();
  vi.useRealTimers();
});

const find = (id: string) => m.wrapper.find(`[data-testid="${id}"]`);
const stamps = (text: string, from: number, step = 0.1) => ({ graph_chars: [...text], graph_times: [...text].map((_, i) => [from + i * step, from + (i + 1) * step]) });
/** `n` samples of PCM16 LE at `level` (0–32767) as a chunk's bytes. */
function pcmBytes(n: number, level: number): Uint8Array {
  const out = new Uint8Array(n * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < n; i++) view.setInt16(i * 2, i % 2 ? level : -level, true);
  return out;
}

describe('Speech draft', () => {
  it('comes back from the kept draft (a value no longer valid falls back) and keeps what is typed', async () => {
    m = await mountWithApp(SpeechView, {
      route: '/speech',
      fake: { drafts: { speech: { text: 'Kept from before, across a restart.', language: 'fr', voice: 'abcd1234', codec: 'pcm', sampleRate: 16000, bitRate: 7, speed: 1.25, mode: 'stream', compare: true, voiceB: 'ara' } } },
    });
    await flushPromises();
    expect((find('speech-text').element as HTMLTextAreaElement).value).toBe('Kept from before, across a restart.');
    expect((find('speech-language').element as HTMLSelectElement).value).toBe('fr');
    expect((find('speech-voice').element as HTMLSelectElement).value).toBe('abcd1234');
    expect((find('speech-codec').element as HTMLSelectElement).value).toBe('pcm');
    expect((find('speech-rate').element as HTMLSelectElement).value).toBe('16000');
    expect((find('mode-stream').element as HTMLInputElement).checked).toBe(true);
    expect((find('speech-compare').element as HTMLInputElement).checked).toBe(true);
    expect((find('speech-voice-b').element as HTMLSelectElement).value).toBe('ara');
    const s = useSpeechStore();
    expect(s.speed).toBe(1.25);
    // 7 is no bit rate: the default (none) instead of a form that cannot be sent.
    expect(s.bitRate).toBeNull();

    vi.useFakeTimers();
    await find('speech-text').setValue('Typed now.');
    await find('speech-voice-b').setValue('eve');
    await vi.advanceTimersByTimeAsync(DRAFT_MAX_WAIT_MS + 10);
    vi.useRealTimers();
    await flushPromises();
    expect(m.fake.controls.drafts.get('speech')?.state).toMatchObject({ text: 'Typed now.', voiceB: 'eve', compare: true, mode: 'stream', language: 'fr' });
  });

  it('New empties the form (the settings back to their defaults)', async () => {
    m = await mountWithApp(SpeechView, { route: '/speech', fake: { drafts: { speech: { text: 'Old text', voice: 'ara', compare: true } } } });
    await flushPromises();
    const newButton = m.wrapper.findAll('button').find((b) => b.text() === 'New')!;
    await newButton.trigger('click');
    await flushPromises();
    expect((find('speech-text').element as HTMLTextAreaElement).value).toBe('');
    expect((find('speech-voice').element as HTMLSelectElement).value).toBe('eve');
    expect(find('speech-compare').exists() && (find('speech-compare').element as HTMLInputElement).checked).toBe(false);
  });
});

describe('Speech compare mode', () => {
  it('speaks the same text with two voices one after the other and shows both results side by side', async () => {
    m = await mountWithApp(SpeechView, { route: '/speech' });
    await flushPromises();
    await find('speech-text').setValue('Hi you');
    await find('speech-compare').setValue(true);
    await find('speech-voice-b').setValue('abcd1234');
    expect(find('speech-send').text()).toBe('Speak with both voices');
    await find('speech-send').trigger('click');
    await flushPromises();
    const reqs = m.fake.controls.speech.requests;
    // One at a time: the second voice waits for the first (each time to first audio measured alone).
    expect(reqs.map((r) => r.input.voice)).toEqual(['eve']);
    const itemA = makeGalleryItem({ id: 'gal_speechA', kind: 'audio', mime: 'audio/mpeg' });
    reqs[0]!.finish({ audio: itemA, timestamps: stamps('Hi you', 0), duration: 0.6 });
    await flushPromises();
    expect(reqs.map((r) => r.input.voice)).toEqual(['eve', 'abcd1234']);
    expect(reqs[1]!.input).toMatchObject({ text: 'Hi you', codec: 'mp3', language: 'en' });
    // The first result shows while the second is made.
    const cards = () => m.wrapper.findAll('[data-testid="speech-run-card"]');
    expect(cards().map((c) => c.attributes('aria-label'))).toEqual(['Voice eve', 'Voice abcd1234']);
    expect(cards()[0]!.find('[data-testid="speech-player"]').exists()).toBe(true);
    expect(cards()[1]!.text()).toContain('Synthesising…');
    const itemB = makeGalleryItem({ id: 'gal_speechB', kind: 'audio', mime: 'audio/mpeg' });
    reqs[1]!.finish({ audio: itemB, timestamps: stamps('Hi you', 0, 0.2), duration: 1.2, timings: { totalMs: 900, ttfbMs: 100, firstAudioMs: null } });
    await flushPromises();
    expect(FakeWaveSurfer.instances.map((w) => w.options.url)).toEqual([itemA.url.url, itemB.url.url]);
    expect(cards()[0]!.find('[data-testid="speech-result-facts"]').text()).toMatch(/^0\.60 s · audio\/mpeg · 500 ms in all · cost: none \(unpriced\)$/);
    expect(cards()[1]!.find('[data-testid="speech-result-facts"]').text()).toMatch(/^1\.20 s · audio\/mpeg · 900 ms in all · cost: none/);
    // Each lights its own characters on its own clock.
    FakeWaveSurfer.instances[1]!.emit('timeupdate', 0.45);
    await flushPromises();
    const lit = (i: number) => cards()[i]!.findAll('.wf-text .ch.lit').map((c) => c.element.textContent).join('');
    expect(lit(1)).toBe('Hi ');
    expect(lit(0)).toBe('H');
    // Each saves its own audio.
    await cards()[1]!.find('[data-testid="speech-save"]').trigger('click');
    await flushPromises();
    expect(m.fake.controls.calls.filter((c) => c.method === 'gallery.save').map((c) => (c.input as { id: string }).id)).toEqual(['gal_speechB']);
  });

  it('streams both with their own time to first audio; Stop ends the first and never starts the second', async () => {
    m = await mountWithApp(SpeechView, { route: '/speech' });
    useSpeechStore().setPlayerFactory(async () => ({ ok: true, value: { enqueue: () => {}, end: () => {}, dispose: async () => {} } }));
    await flushPromises();
    await find('mode-stream').trigger('change');
    await find('speech-compare').setValue(true);
    await find('speech-text').setValue('Hi');
    await find('speech-send').trigger('click');
    await flushPromises();
    const reqs = m.fake.controls.speech.requests;
    reqs[0]!.emit({ type: 'first-audio', ms: 80, from: 'text.done' });
    reqs[0]!.emit({ type: 'audio', index: 0, audio: pcmBytes(240, 1000), timestamps: null, duration: null, atMs: 80 });
    reqs[0]!.finish({ timings: { totalMs: 200, ttfbMs: 80, firstAudioMs: 80 } });
    await flushPromises();
    expect(reqs.map((r) => [r.method, r.input.voice])).toEqual([['speech.stream', 'eve'], ['speech.stream', 'rex']]);
    reqs[1]!.emit({ type: 'first-audio', ms: 130, from: 'text.done' });
    reqs[1]!.emit({ type: 'audio', index: 0, audio: pcmBytes(240, 1000), timestamps: null, duration: null, atMs: 130 });
    await flushPromises();
    const ttfa = m.wrapper.findAll('[data-testid="speech-ttfa"]').map((p) => p.text());
    expect(ttfa).toEqual(['Time to first audio: 80 ms · 1 chunk', 'Time to first audio: 130 ms · 1 chunk']);
    reqs[1]!.finish({ timings: { totalMs: 300, ttfbMs: 130, firstAudioMs: 130 } });
    await flushPromises();

    // Stop during the first voice: it is cancelled and the second voice is never asked for.
    await find('speech-send').trigger('click');
    await flushPromises();
    expect(reqs).toHaveLength(3);
    await find('speech-stop').trigger('click');
    await flushPromises();
    expect(reqs[2]!.cancelled).toBe(true);
    expect(reqs).toHaveLength(3);
    expect((find('speech-send').element as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('Speech compare mode on a native output device', () => {
  it('both voices play on the chosen device, each card saying where and how much was heard; the page player stays shut', async () => {
    m = await mountWithApp(SpeechView, { route: '/speech' });
    let pageOpened = 0;
    useSpeechStore().setPlayerFactory(async () => (pageOpened++, { ok: false, error: { code: 'unsupported', message: 'no page player here' } }));
    await flushPromises();
    await find('mode-stream').trigger('change');
    await m.wrapper.find('[data-testid="speech-output"] select').setValue('native:ALSA:Speakers');
    await find('speech-compare').setValue(true);
    await find('speech-voice-b').setValue('ara');
    await find('speech-text').setValue('Hi you');
    await find('speech-send').trigger('click');
    await flushPromises();
    const reqs = m.fake.controls.speech.requests;
    const cards = () => m.wrapper.findAll('[data-testid="speech-run-card"]');
    const deviceLines = () => cards().map((c) => (c.find('[data-testid="speech-device"]').exists() ? c.find('[data-testid="speech-device"]').text() : null));
    reqs[0]!.emit({ type: 'device', name: 'Speakers' });
    reqs[0]!.emit({ type: 'audio', index: 0, audio: pcmBytes(240, 1000), timestamps: null, duration: null, atMs: 60 });
    reqs[0]!.emit({ type: 'played', ms: 400 });
    await flushPromises();
    expect(deviceLines()).toEqual(['Playing on Speakers: 0.4 s heard', null]);
    reqs[0]!.emit({ type: 'played', ms: 1_000 });
    reqs[0]!.finish({ timings: { totalMs: 1_100, ttfbMs: 60, firstAudioMs: 60 } });
    await flushPromises();
    // The second voice asks for the same device and reports its own device and clock.
    expect(reqs.map((r) => [r.input.voice, r.input.output])).toEqual([['eve', { device: 'ALSA:Speakers' }], ['ara', { device: 'ALSA:Speakers' }]]);
    reqs[1]!.emit({ type: 'device', name: 'Speakers' });
    reqs[1]!.emit({ type: 'audio', index: 0, audio: pcmBytes(240, 1000), timestamps: null, duration: null, atMs: 70 });
    reqs[1]!.emit({ type: 'played', ms: 2_250 });
    await flushPromises();
    expect(deviceLines()).toEqual(['Playing on Speakers: 1.0 s heard', 'Playing on Speakers: 2.3 s heard']);
    reqs[1]!.finish({ timings: { totalMs: 2_400, ttfbMs: 70, firstAudioMs: 70 }, played: { ms: 2_300, stopped: false, error: 'the device was unplugged' } });
    await flushPromises();
    expect(deviceLines()[1]).toBe('Playing on Speakers: 2.3 s heard · the device was unplugged');
    expect(pageOpened).toBe(0);
  });
});

describe('Speech compare mode, streamed', () => {
  it('the second voice is asked for only once the first has been heard to its end', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    m = await mountWithApp(SpeechView, { route: '/speech' });
    let playedMs = 0;
    useSpeechStore().setPlayerFactory(async () => ({ ok: true, value: { enqueue: () => {}, end: () => {}, dispose: async () => {}, stats: async () => ({ playedMs }) } }));
    await find('mode-stream').trigger('change');
    await find('speech-compare').setValue(true);
    await find('speech-text').setValue('Hi');
    await find('speech-send').trigger('click');
    await flushPromises();
    const reqs = m.fake.controls.speech.requests;
    reqs[0]!.emit({ type: 'audio', index: 0, audio: pcmBytes(12_000, 8000), timestamps: stamps('Hi', 0, 0.2), duration: 0.5, atMs: 90 });
    await flushPromises();
    reqs[0]!.finish();
    playedMs = 200;
    await vi.advanceTimersByTimeAsync(PLAYED_POLL_MS * 3);
    await flushPromises();
    // Still playing the first voice: the second waits.
    expect(reqs).toHaveLength(1);
    playedMs = 500;
    await vi.advanceTimersByTimeAsync(PLAYED_POLL_MS * 2);
    await flushPromises();
    expect(reqs.map((r) => r.input.voice)).toEqual(['eve', 'rex']);
  });
});

describe('Speech stream: the waveform grows as the audio arrives', () => {
  it('draws each chunk as it comes and lights the characters the page player has played', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    m = await mountWithApp(SpeechView, { route: '/speech' });
    let playedMs = 0;
    useSpeechStore().setPlayerFactory(async () => ({ ok: true, value: { enqueue: () => {}, end: () => {}, dispose: async () => {}, stats: async () => ({ playedMs }) } }));
    await find('mode-stream').trigger('change');
    await find('speech-text').setValue('Hello there');
    await find('speech-send').trigger('click');
    await flushPromises();
    const req = m.fake.controls.speech.requests[0]!;
    const wave = () => find('speech-live-wave');
    const liveLit = () => m.wrapper.findAll('[data-testid="speech-live-text"] .ch.lit').map((c) => c.element.textContent).join('');
    // 24 kHz PCM: 0.5 s of audio with "Hello " (0.1 s a character), then 0.5 s with "there".
    req.emit({ type: 'first-audio', ms: 90, from: 'text.done' });
    req.emit({ type: 'audio', index: 0, audio: pcmBytes(12_000, 8000), timestamps: stamps('Hello ', 0, 0.08), duration: 0.5, atMs: 90 });
    await flushPromises();
    expect(wave().attributes('data-columns')).toBe('25');
    expect(find('speech-live-text').element.textContent).toBe('Hello ');
    expect(find('speech-live-clock').text()).toBe('0:00.0 played · 0:00.5 received');
    req.emit({ type: 'audio', index: 1, audio: pcmBytes(12_000, 16000), timestamps: stamps('there', 0.5, 0.08), duration: 0.5, atMs: 400 });
    await flushPromises();
    // The waveform grew by the second chunk, and the characters with it.
    expect(wave().attributes('data-columns')).toBe('50');
    expect(find('speech-live-text').element.textContent).toBe('Hello there');
    // At 0 the first character is being heard.
    expect(liveLit()).toBe('H');
    // The player has played 0.3 s: "Hell" (starts 0, .08, .16, .24) lit, the played part drawn.
    playedMs = 300;
    await vi.advanceTimersByTimeAsync(PLAYED_POLL_MS);
    await flushPromises();
    expect(liveLit()).toBe('Hell');
    expect(wave().attributes('data-played-columns')).toBe('15');
    playedMs = 620;
    await vi.advanceTimersByTimeAsync(PLAYED_POLL_MS);
    await flushPromises();
    expect(liveLit()).toBe('Hello th');
    // The stream ends before its audio does: the live view stays until everything is heard.
    const item = makeGalleryItem({ id: 'gal_live1', kind: 'audio', mime: 'audio/wav' });
    req.finish({ audio: item, timestamps: stamps('Hello there', 0, 0.08) });
    await flushPromises();
    expect(find('speech-live-wave').exists()).toBe(true);
    expect(find('speech-player').exists()).toBe(false);
    playedMs = 1000;
    await vi.advanceTimersByTimeAsync(PLAYED_POLL_MS);
    await flushPromises();
    expect(find('speech-live-wave').exists()).toBe(false);
    expect(FakeWaveSurfer.instances.map((w) => w.options.url)).toEqual([item.url.url]);
  });
});

describe('Speech: a long text over REST', () => {
  it('says before sending what the wait means, counts it while waiting, and explains what Stop keeps', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    m = await mountWithApp(SpeechView, { route: '/speech' });
    // 3,000 characters: about 3 minutes of speech.
    await find('speech-text').setValue('Long prose goes on. '.repeat(150));
    expect(find('speech-long-note').text()).toMatch(/^This is about 3 minutes of speech\. Over REST nothing arrives until all of it is made, which can take many minutes; MP3 is the slowest to make\. Stop cancels, but keeps nothing\./);
    await find('speech-send').trigger('click');
    await flushPromises();
    expect(find('speech-waiting').text()).toBe('Synthesising… 0:00 elapsed');
    expect(find('speech-wait-note').text()).toMatch(/about 3 minutes of speech/);
    await vi.advanceTimersByTimeAsync(65_000);
    expect(find('speech-waiting').text()).toBe('Synthesising… 1:05 elapsed');
    await find('speech-stop').trigger('click');
    await flushPromises();
    expect(m.fake.controls.speech.requests[0]!.cancelled).toBe(true);
    expect(find('speech-cancelled').text()).toBe('Stopped after 1:05. Over REST nothing arrives until the whole answer is made, so no audio was kept; Streaming keeps the audio received when you stop.');
    // Streaming is one click away; a short text has no note.
    await find('speech-use-streaming').trigger('click');
    expect((find('mode-stream').element as HTMLInputElement).checked).toBe(true);
    expect(find('speech-long-note').exists()).toBe(false);
    await find('mode-rest').trigger('change');
    await find('speech-text').setValue('Short.');
    expect(find('speech-long-note').exists()).toBe(false);
  });

  it('a REST answer that never came is explained with what to do instead', async () => {
    m = await mountWithApp(SpeechView, { route: '/speech' });
    await find('speech-text').setValue('Hello');
    await find('speech-send').trigger('click');
    await flushPromises();
    m.fake.controls.speech.requests[0]!.fail({ code: 'timeout', message: 'No answer from api.example.com within 60 s.' });
    await flushPromises();
    expect(find('speech-timeout-hint').text()).toMatch(/send it as Streaming/);
  });
});

describe('Speech stream: a page output that does not play', () => {
  it('stops waiting for its clock once the stream is over and shows the kept audio', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    m = await mountWithApp(SpeechView, { route: '/speech' });
    useSpeechStore().setPlayerFactory(async () => ({ ok: true, value: { enqueue: () => {}, end: () => {}, dispose: async () => {}, stats: async () => ({ playedMs: 0 }) } }));
    await find('mode-stream').trigger('change');
    await find('speech-text').setValue('Hi');
    await find('speech-send').trigger('click');
    await flushPromises();
    const req = m.fake.controls.speech.requests[0]!;
    req.emit({ type: 'audio', index: 0, audio: pcmBytes(12_000, 8000), timestamps: stamps('Hi', 0, 0.2), duration: 0.5, atMs: 90 });
    await flushPromises();
    // While the stream lasts, a still clock is waited for (the output may be starting).
    await vi.advanceTimersByTimeAsync(PLAYED_STALL_MS * 2);
    expect(find('speech-live-wave').exists()).toBe(true);
    req.finish({ audio: makeGalleryItem({ id: 'gal_live2', kind: 'audio', mime: 'audio/wav' }), timestamps: stamps('Hi', 0, 0.2) });
    await flushPromises();
    expect(find('speech-live-wave').exists()).toBe(true);
    await vi.advanceTimersByTimeAsync(PLAYED_STALL_MS + PLAYED_POLL_MS * 2);
    await flushPromises();
    expect(find('speech-live-wave').exists()).toBe(false);
    expect(find('speech-player').exists()).toBe(true);
  });
});
