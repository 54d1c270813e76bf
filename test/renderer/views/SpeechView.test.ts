/**
 * The Speech playground with the fake workbench: the tag palette edits at the cursor / around the
 * selection, the count against 60,000 blocks sending when over, the voices (built-in and custom)
 * come from speech.voices, REST sends the form and shows the audio on the waveform player (a fake
 * wavesurfer) with its characters lit as the audio's time moves, streaming feeds each chunk to the page's player from the first and shows
 * the time to first audio, and an error is explained.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { useSpeechStore } from '@/families/speech/stores/speech';
import { makeGalleryItem } from '../fake-workbench';
import { PRESET_SPEECH_RESULTS } from '../fake-speech';
import { mountWithApp, type Mounted } from '../mount-app';
import { FakeWaveSurfer } from '../components/audio/fake-wavesurfer';
import { WorkbenchFailure } from '@shared/contract/errors';

vi.mock('wavesurfer.js', () => import('../components/audio/fake-wavesurfer'));

const { default: SpeechView } = await import('@/families/speech/views/SpeechView.vue');

let m: Mounted;
beforeEach(() => (FakeWaveSurfer.instances = []));
afterEach(() => m?.wrapper.unmount());
/** The characters lit on the waveform player, as text. */
const lit = (): string => m.wrapper.findAll('[data-testid="speech-player"] .wf-text .ch.lit').map((s) => s.element.textContent).join('');

const textarea = (): HTMLTextAreaElement => m.wrapper.find('[data-testid="speech-text"]').element as HTMLTextAreaElement;
const timestamps = { graph_chars: ['H', 'i', ' ', 'y', 'o', 'u'], graph_times: [[0, 0.1], [0.1, 0.2], [0.2, 0.3], [0.3, 0.4], [0.4, 0.5], [0.5, 0.6]] };

describe('SpeechView', () => {
  it('inserts an inline tag at the cursor and wraps the selection in a wrapping tag', async () => {
    m = await mountWithApp(SpeechView, { route: '/speech' });
    await m.wrapper.find('[data-testid="speech-text"]').setValue('Hello there friend');
    textarea().setSelectionRange(5, 5);
    await m.wrapper.find('[data-tag="pause"]').trigger('click');
    await flushPromises();
    expect(textarea().value).toBe('Hello [pause] there friend');
    textarea().setSelectionRange(14, 19);
    await m.wrapper.find('[data-wrap="whisper"]').trigger('click');
    await flushPromises();
    expect(textarea().value).toBe('Hello [pause] <whisper>there</whisper> friend');
    // The selection stays on the wrapped word.
    expect(textarea().value.slice(textarea().selectionStart, textarea().selectionEnd)).toBe('there');
  });

  it('counts characters against 60,000 and will not send over it', async () => {
    m = await mountWithApp(SpeechView, { route: '/speech' });
    await m.wrapper.find('[data-testid="speech-text"]').setValue('a'.repeat(60_005));
    await flushPromises();
    expect(m.wrapper.find('[data-testid="speech-count"]').text()).toContain('60,005 / 60,000 characters — 5 over the limit');
    expect((m.wrapper.find('[data-testid="speech-send"]').element as HTMLButtonElement).disabled).toBe(true);
    expect(m.wrapper.find('[data-testid="speech-problem"]').text()).toMatch(/over 60,000 characters/);
  });

  it('lists built-in and custom voices and sends the form over REST; the result lights characters as the audio plays', async () => {
    m = await mountWithApp(SpeechView, { route: '/speech' });
    await flushPromises();
    const options = m.wrapper.findAll('[data-testid="speech-voice"] option').map((o) => o.text());
    expect(options).toEqual(['Eve', 'Ara', 'My narrator (abcd1234)']);
    await m.wrapper.find('[data-testid="speech-voice"]').setValue('abcd1234');
    await m.wrapper.find('[data-testid="speech-text"]').setValue('Hi you');
    await m.wrapper.find('[data-testid="speech-send"]').trigger('click');
    await flushPromises();
    const req = m.fake.controls.speech.requests[0]!;
    expect(req.method).toBe('speech.synthesize');
    expect(req.input).toMatchObject({ text: 'Hi you', voice: 'abcd1234', language: 'en', codec: 'mp3', sampleRate: 24000, speed: 1, withTimestamps: true });
    const item = makeGalleryItem({ id: 'gal_speech0001', kind: 'audio', mime: 'audio/mpeg' });
    req.finish({ audio: item, timestamps });
    await flushPromises();
    // The kept audio plays on the waveform player from its media URL, its text under the waveform.
    expect(FakeWaveSurfer.instances.map((w) => w.options.url)).toEqual([item.url.url]);
    expect(m.wrapper.findAll('[data-testid="speech-player"] .wf-text .ch')).toHaveLength(6);
    const ws = FakeWaveSurfer.instances[0]!;
    ws.emit('ready', 0.6);
    await flushPromises();
    expect(lit()).toBe('H');
    ws.emit('timeupdate', 0.25);
    await flushPromises();
    expect(lit()).toBe('Hi ');
    ws.emit('timeupdate', 0.55);
    await flushPromises();
    expect(lit()).toBe('Hi you');
    expect(m.wrapper.find('[data-testid="speech-player"] .ch.current').text()).toBe('u');
    // Clicking a character seeks the audio to where it is spoken.
    await m.wrapper.findAll('[data-testid="speech-player"] .wf-text .ch')[3]!.trigger('click');
    expect(ws.calls.filter((c) => c[0] === 'setTime')).toEqual([['setTime', 0.3]]);
    await flushPromises();
    expect(lit()).toBe('Hi y');
    expect(m.wrapper.find('[data-testid="speech-cost"]').text()).toMatch(/no price/);
  });

  it('streams: the page player gets each chunk from the first, and the time to first audio shows', async () => {
    m = await mountWithApp(SpeechView, { route: '/speech' });
    const played: number[][] = [];
    let opened = 0;
    useSpeechStore().setPlayerFactory(async (rate) => {
      opened = rate;
      return { ok: true, value: { enqueue: (pcm) => played.push([...pcm]), end: () => played.push([]), dispose: async () => {} } };
    });
    await m.wrapper.find('[data-testid="mode-stream"]').trigger('change');
    await m.wrapper.find('[data-testid="speech-text"]').setValue('Hi you');
    await m.wrapper.find('[data-testid="speech-send"]').trigger('click');
    await flushPromises();
    const req = m.fake.controls.speech.requests[0]!;
    expect(req.method).toBe('speech.stream');
    // Streaming switched MP3 to PCM, which the page plays chunk by chunk.
    expect(req.input.codec).toBe('pcm');
    expect(m.wrapper.find('[data-testid="speech-ttfa"]').text()).toBe('Waiting for the first audio…');
    req.emit({ type: 'first-audio', ms: 87.4, from: 'text.done' });
    req.emit({ type: 'audio', index: 0, audio: Uint8Array.of(1, 0, 2, 0), timestamps: null, duration: null, atMs: 90 });
    await flushPromises();
    expect(opened).toBe(24000);
    expect(played).toEqual([[1, 2]]);
    expect(m.wrapper.find('[data-testid="speech-ttfa"]').text()).toBe('Time to first audio: 87 ms · 1 chunk');
    req.emit({ type: 'audio', index: 1, audio: Uint8Array.of(3, 0, 0xff, 0xff), timestamps: null, duration: null, atMs: 120 });
    await flushPromises();
    expect(played).toEqual([[1, 2], [3, -1]]);
    req.finish({ timings: { totalMs: 300, ttfbMs: 90, firstAudioMs: 87.4 } });
    await flushPromises();
    // The player is told the utterance ended.
    expect(played.at(-1)).toEqual([]);
    expect(m.wrapper.find('[data-testid="speech-ttfa"]').text()).toContain('2 chunks');
  });

  it('previews the chosen voice: a short sample (the text\'s first sentence) plays in it; a failure is explained', async () => {
    m = await mountWithApp(SpeechView, { route: '/speech' });
    await flushPromises();
    await m.wrapper.find('[data-testid="speech-voice"]').setValue('abcd1234');
    await m.wrapper.find('[data-testid="speech-text"]').setValue('Good morning,   everyone! Today we talk about foxes.');
    const audio = m.wrapper.find('[data-testid="speech-voice-preview-audio"]').element as HTMLAudioElement;
    let played = 0;
    audio.play = () => (played++, Promise.resolve());
    expect(m.wrapper.find('[data-testid="speech-voice-preview"]').attributes('aria-label')).toBe('Preview voice abcd1234');
    await m.wrapper.find('[data-testid="speech-voice-preview"]').trigger('click');
    await flushPromises();
    const calls = () => m.fake.controls.calls.filter((c) => c.method === 'voices.preview').map((c) => c.input);
    expect(calls()).toEqual([{ voiceId: 'abcd1234', text: 'Good morning, everyone!', language: 'en' }]);
    expect(audio.getAttribute('src')).toMatch(/^\/media\/[0-9a-f]{64}\?t=fake$/);
    expect(played).toBe(1);
    // A preview is not a Speak: no speech run was started.
    expect(m.fake.controls.speech.requests).toHaveLength(0);
    // With no text yet, a stock line in the language chosen.
    await m.wrapper.find('[data-testid="speech-text"]').setValue('');
    await m.wrapper.find('[data-testid="speech-language"]').setValue('fr');
    await m.wrapper.find('[data-testid="speech-voice"]').setValue('eve');
    await m.wrapper.find('[data-testid="speech-voice-preview"]').trigger('click');
    await flushPromises();
    expect(calls()[1]).toEqual({ voiceId: 'eve', text: 'Hello! This is how I sound.', language: 'fr' });
    expect(played).toBe(2);
    m.fake.voices.preview = async () => {
      throw new WorkbenchFailure({ code: 'not_found', message: 'The service has no voice "eve" now: choose another.' });
    };
    await m.wrapper.find('[data-testid="speech-voice-preview"]').trigger('click');
    await flushPromises();
    expect(m.wrapper.find('[data-testid="speech-preview-error"]').text()).toBe('No preview of "eve": The service has no voice "eve" now: choose another.');
    expect(played).toBe(2);
  });

  it('a stream cut short mid-utterance keeps the audio that came, plays it, and says it is partial', async () => {
    m = await mountWithApp(SpeechView, { route: '/speech' });
    await m.wrapper.find('[data-testid="speech-text"]').setValue('Hi you');
    await m.wrapper.find('[data-testid="speech-send"]').trigger('click');
    await flushPromises();
    const why = 'The connection closed before the speech was complete (after 2 audio chunks); the audio received is kept.';
    const item = makeGalleryItem({ id: 'gal_speechcut1', kind: 'audio', mime: 'audio/wav' });
    m.fake.controls.speech.requests[0]!.finish({ audio: item, timestamps, partial: { message: why } });
    await flushPromises();
    expect(m.wrapper.find('.partial[role="status"]').text()).toBe(`Partial: ${why}`);
    expect(FakeWaveSurfer.instances.map((w) => w.options.url)).toEqual([item.url.url]);
  });

  it('explains a failure', async () => {
    m = await mountWithApp(SpeechView, { route: '/speech' });
    await m.wrapper.find('[data-testid="speech-text"]').setValue('Hello');
    await m.wrapper.find('[data-testid="speech-send"]').trigger('click');
    await flushPromises();
    m.fake.controls.speech.requests[0]!.fail({ code: 'invalid_input', message: 'The service has no voice "zed": choose a built-in voice.' });
    await flushPromises();
    expect(document.body.textContent).toContain('The service has no voice "zed"');
  });
});

describe('Speech keyboard and History entry', () => {
  it('speaks on Ctrl+Enter from the text and stops on Esc', async () => {
    m = await mountWithApp(SpeechView, { route: '/speech' });
    await m.wrapper.find('[data-testid="speech-text"]').setValue('Hello');
    await m.wrapper.find('[data-testid="speech-text"]').trigger('keydown', { key: 'Enter', ctrlKey: true });
    await flushPromises();
    const req = m.fake.controls.speech.requests[0]!;
    expect(req.input.text).toBe('Hello');
    await m.wrapper.find('[data-testid="speech-text"]').trigger('keydown', { key: 'Escape' });
    await flushPromises();
    expect(req.cancelled).toBe(true);
  });

  it("History's entry plays the run's audio with its characters", async () => {
    const { default: SpeechRunDetails } = await import('@/families/speech/components/SpeechRunDetails.vue');
    const { makeRecord } = await import('../fake-data');
    const item = makeGalleryItem({ id: 'gal_speech0009', kind: 'audio', mime: 'audio/mpeg' });
    PRESET_SPEECH_RESULTS.set('run-speech9', {
      runId: 'run-speech9', audio: item, codec: 'mp3', contentType: 'audio/mpeg', duration: 0.6, timestamps, form: 'json', partial: null, timings: { totalMs: 1, ttfbMs: 1, firstAudioMs: null }, costTicks: null, traceId: null,
    });
    m = await mountWithApp(SpeechRunDetails, { route: '/history', props: { record: makeRecord({ id: 'run-speech9', endpoint: 'speech.synthesize', model: 'ara', request: { method: 'POST', url: 'http://x/v1/tts', headers: {}, body: { text: 'Hi you', language: 'en' } } } as never) } });
    await flushPromises();
    expect(m.wrapper.find('.sent').text()).toBe('Hi you');
    expect(FakeWaveSurfer.instances.map((w) => w.options.url)).toEqual([item.url.url]);
    expect(m.wrapper.findAll('[data-testid="speech-player"] .wf-text .ch').map((c) => c.text() || ' ').join('')).toBe('Hi you');
    FakeWaveSurfer.instances[0]!.emit('timeupdate', 0.35);
    await flushPromises();
    expect(lit()).toBe('Hi y');
    PRESET_SPEECH_RESULTS.clear();
  });
});
