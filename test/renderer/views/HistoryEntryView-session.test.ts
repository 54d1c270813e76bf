import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import HistoryEntryView from '@/views/HistoryEntryView.vue';
import type { Endpoint } from '@shared/contract/runs';
import { mountWithApp, type Mounted } from '../mount-app';
import { makeRecord } from '../fake-data';
import { makeGalleryItem } from '../fake-workbench';
import { makeFakeSession, makeTrack } from '../fake-session';
import { FakeWaveSurfer } from '../components/audio/fake-wavesurfer';

vi.mock('wavesurfer.js', () => import('../components/audio/fake-wavesurfer'));

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  document.body.innerHTML = '';
  FakeWaveSurfer.instances = [];
});

// An endpoint no family of this build describes (a newer build's voice family) is shown as a session when main has its recording.
const callRun = makeRecord({ id: 'run-call', endpoint: 'voicelab.call' as Endpoint, model: 'svc-voice-1', events: [] });

const rows = (): HTMLElement[] => [...document.querySelectorAll<HTMLElement>('.timeline-row')];
const rowText = (el: HTMLElement): string => [...el.children].map((c) => c.textContent!.trim()).filter(Boolean).join(' ');
const timelineCalls = () => m.fake.controls.calls.filter((c) => c.method === 'history.timeline').map((c) => (c.input as { offset: number }).offset);

async function scrollTimelineTo(px: number): Promise<void> {
  const scroller = document.querySelector<HTMLElement>('.timeline-scroller')!;
  scroller.scrollTop = px;
  scroller.dispatchEvent(new Event('scroll'));
  await flushPromises();
}

describe('HistoryEntryView (live sessions)', () => {
  it('says a crashed session ended abnormally and how much was kept, and plays each direction and the stereo mix', async () => {
    const crashed = makeFakeSession({
      kind: 'realtime',
      state: 'crashed',
      endReason: 'The app stopped during this session (a crash or a forced quit), so it ended abnormally. Its recording and events were kept up to 0:04.100; anything after that is lost.',
      tracks: [
        makeTrack({ id: 'trk_model', direction: 'in', name: 'model', sampleRate: 24_000, durationMs: 3_900, startMs: 200, state: 'crashed' }),
        makeTrack({ id: 'trk_mic', direction: 'out', name: 'microphone', durationMs: 4_100, state: 'crashed' }),
      ],
    });
    const mix = makeGalleryItem({ id: 'gal_callmix01', kind: 'audio', origin: 'recorded', runId: 'run-call', mime: 'audio/wav', duration: 4.1, name: 'call.wav' });
    m = await mountWithApp(HistoryEntryView, { route: '/history/run-call', props: { id: 'run-call' }, fake: { history: [callRun], sessions: { 'run-call': crashed }, gallery: [mix] } });
    await flushPromises();
    expect(document.querySelector('.session-state[role="alert"]')?.textContent).toContain('ended abnormally. Its recording and events were kept up to 0:04.100');
    // Sent first, then received, then the mix; each player loads its track's URL.
    const tracks = [...document.querySelectorAll<HTMLElement>('.track')];
    expect(tracks.map((t) => t.dataset.direction)).toEqual(['out', 'in', 'mix']);
    expect(tracks[0]!.textContent).toContain('cut short by the crash');
    expect(FakeWaveSurfer.instances.map((w) => w.options.url)).toEqual(['/media/trk_mic?t=fake', '/media/trk_model?t=fake', mix.url.url]);
    expect(tracks[2]!.querySelector('a')?.getAttribute('href')).toBe('/gallery?open=gal_callmix01');
  });

  it('a call transferred before the model spoke: its empty track says it has no audio (no 0:00 player that never loads); each track is a group named by its track', async () => {
    const transferred = makeFakeSession({
      kind: 'realtime',
      tracks: [
        // As main lists a SIP call whose model never spoke: a closed track of 0 frames, its WAV a bare header.
        makeTrack({ id: 'trk_model', direction: 'in', name: 'model', sampleRate: 8_000, durationMs: 0, media: { url: '/media/trk_model?t=fake', expiresAt: null, mime: 'audio/wav', size: 44 } }),
        makeTrack({ id: 'trk_mic', direction: 'out', name: 'microphone', durationMs: 2_000 }),
      ],
    });
    m = await mountWithApp(HistoryEntryView, { route: '/history/run-call', props: { id: 'run-call' }, fake: { history: [callRun], sessions: { 'run-call': transferred } } });
    await flushPromises();
    const group = (name: string) => document.querySelector<HTMLElement>(`[role="group"][aria-label="${name}"]`);
    expect(group('model, received')?.textContent).toContain('No audio: nothing was received from the service on this track before the session ended.');
    expect(group('model, received')?.querySelector('.waveform-player')).toBeNull();
    // The track with audio still plays, and is the only player made.
    expect(group('microphone, sent')?.querySelector('.waveform-player')).not.toBeNull();
    expect(FakeWaveSurfer.instances.map((w) => w.options.url)).toEqual(['/media/trk_mic?t=fake']);
  });

  it('an entry opened while its call is still stopping is read again when a live session ends: the player replaces "Still recording"', async () => {
    const stopping = makeFakeSession({ kind: 'realtime', state: 'recording', tracks: [makeTrack({ id: 'trk_model', direction: 'in', name: 'model', state: 'recording', durationMs: null, media: null })] });
    const sessions = { 'run-call': stopping };
    m = await mountWithApp(HistoryEntryView, { route: '/history/run-call', props: { id: 'run-call' }, fake: { history: [callRun], sessions } });
    await flushPromises();
    const model = () => document.querySelector<HTMLElement>('[role="group"][aria-label="model, received"]')!;
    expect(model().textContent).toContain('Still recording: playable once the session ends.');
    expect(FakeWaveSurfer.instances).toHaveLength(0);
    const reads = () => m.fake.controls.calls.filter((c) => c.method === 'history.session').length;
    const before = reads();

    // Its stop finalises the track, then main says the live session ended.
    sessions['run-call'] = makeFakeSession({ kind: 'realtime', tracks: [makeTrack({ id: 'trk_model', direction: 'in', name: 'model', durationMs: 1_700 })] });
    const live = m.fake.controls.live;
    live.sessions.set('live_call', { summary: { id: 'live_call', kind: 'realtime', origin: 'main', status: 'stopping', state: null, startedAt: 0, endedAt: null, endReason: null, error: null, attachments: 0 }, snapshot: null, seq: 0, attachments: [] });
    live.end('live_call');
    await flushPromises();
    expect(reads()).toBe(before + 1);
    expect(model().textContent).not.toContain('Still recording');
    expect(FakeWaveSurfer.instances.map((w) => w.options.url)).toEqual(['/media/trk_model?t=fake']);

    // A finished entry is not read again for every other session that ends.
    live.sessions.set('live_other', { summary: { id: 'live_other', kind: 'transcription', origin: 'window', status: 'running', state: null, startedAt: 0, endedAt: null, endReason: null, error: null, attachments: 0 }, snapshot: null, seq: 0, attachments: [] });
    live.end('live_other');
    await flushPromises();
    expect(reads()).toBe(before + 1);
  });

  it('a live transcription run (its family has an entry of its own) shows as a session: the microphone track plays, the timeline lists', async () => {
    const live = makeRecord({ id: 'run-live', endpoint: 'transcription.live' as Endpoint, model: 'default', events: [] });
    const session = makeFakeSession({ kind: 'transcription', tracks: [makeTrack({ id: 'trk_livemic', direction: 'out', name: 'microphone', durationMs: 6_000 })] });
    m = await mountWithApp(HistoryEntryView, { route: '/history/run-live', props: { id: 'run-live' }, fake: { history: [live], sessions: { 'run-live': session } } });
    await flushPromises();
    expect([...document.querySelectorAll<HTMLElement>('.track')].map((t) => t.dataset.direction)).toEqual(['out']);
    expect(FakeWaveSurfer.instances.map((w) => w.options.url)).toEqual(['/media/trk_livemic?t=fake']);
    expect(document.querySelector('[aria-label="Session timeline"]')).not.toBeNull();
    expect(m.fake.controls.calls.some((c) => c.method === 'transcription.ofRun')).toBe(false);
  });

  it('a live transcription run shows its transcript: utterances with times, one column per channel, speakers coloured, the played word lit', async () => {
    const w = (text: string, start: number, end: number, speaker: number | null = null) => ({ text, start, end, confidence: 0.9, speaker });
    const seg = (words: ReturnType<typeof w>[], utterance: boolean, speaker: number | null = null) => ({ text: words.map((x) => x.text).join(' '), start: words[0]!.start, duration: words.at(-1)!.end - words[0]!.start, speaker, words, utterance });
    const output = {
      object: 'live_transcript',
      channels: [
        // Two chunks closing one utterance, then a second utterance by another speaker.
        { channel: 0, segments: [seg([w('good', 0.5, 0.8, 0), w('morning', 0.9, 1.3, 0)], false, 0), seg([w('everyone', 1.4, 1.9, 0)], true, 0), seg([w('hello', 4.0, 4.4, 1)], true, 1)] },
        { channel: 1, segments: [seg([w('right', 2.0, 2.3)], true)] },
      ],
    };
    const live = makeRecord({ id: 'run-live', endpoint: 'transcription.live' as Endpoint, model: 'default', events: [], output });
    const session = makeFakeSession({ kind: 'transcription', tracks: [makeTrack({ id: 'trk_livemic', direction: 'out', name: 'microphone', durationMs: 6_000, channels: 2 })] });
    m = await mountWithApp(HistoryEntryView, { route: '/history/run-live', props: { id: 'run-live' }, fake: { history: [live], sessions: { 'run-live': session } } });
    await flushPromises();
    const panel = document.querySelector<HTMLElement>('[data-testid="live-transcript"]')!;
    expect(panel).not.toBeNull();
    const columns = [...panel.querySelectorAll<HTMLElement>('[data-testid^="channel-"]')];
    expect(columns.map((c) => c.dataset.testid)).toEqual(['channel-0', 'channel-1']);
    const segments = [...columns[0]!.querySelectorAll<HTMLElement>('[data-testid="segment"]')];
    expect(segments.map((el) => el.querySelector('.when')!.textContent)).toEqual(['00:00 · Speaker 1', '00:04 · Speaker 2']);
    expect(segments.map((el) => [...el.querySelectorAll('[data-testid="word"]')].map((x) => x.textContent).join(' '))).toEqual(['good morning everyone', 'hello']);
    expect(segments.map((el) => el.className)).toEqual(['segment speaker-0', 'segment speaker-1']);
    expect(columns[1]!.textContent).toContain('right');
    // The microphone track's clock lights the word being said; a click on a word seeks that track.
    const mic = FakeWaveSurfer.instances[0]!;
    mic.emit('ready', 6);
    mic.emit('timeupdate', 1.5);
    await flushPromises();
    expect([...panel.querySelectorAll('.word.lit')].map((x) => x.textContent)).toEqual(['everyone']);
    panel.querySelectorAll<HTMLElement>('[data-testid="word"]')[3]!.click();
    expect(mic.calls.filter((c) => c[0] === 'setTime').at(-1)).toEqual(['setTime', 4.0]);
  });

  it('the live transcript figure comes from the marks: speech stopped to final transcript', async () => {
    const s = makeFakeSession({
      kind: 'transcription',
      marks: [
        { type: 'speech_started', t: 100, eventIndex: 2 },
        { type: 'speech_stopped', t: 1_900, eventIndex: 8 },
        { type: 'final_transcript', t: 2_250, eventIndex: 9 },
      ],
    });
    m = await mountWithApp(HistoryEntryView, { route: '/history/run-call', props: { id: 'run-call' }, fake: { history: [callRun], sessions: { 'run-call': s } } });
    await flushPromises();
    const figures = [...document.querySelectorAll('[aria-label="Figures"] dt')].map((dt) => `${dt.textContent} ${dt.nextElementSibling!.textContent}`).join('\n');
    expect(figures).toContain('Final transcript p50 350 ms · p95 350 ms over 1 turn');
  });

  it('shows the figures the marks give (time to first audio, per turn)', async () => {
    const s = makeFakeSession({ marks: [{ type: 'text_done', t: 100, eventIndex: 5 }, { type: 'first_audio', t: 340, eventIndex: 17 }] });
    m = await mountWithApp(HistoryEntryView, { route: '/history/run-call', props: { id: 'run-call' }, fake: { history: [callRun], sessions: { 'run-call': s } } });
    await flushPromises();
    const figures = [...document.querySelectorAll('[aria-label="Figures"] dt')].map((dt) => `${dt.textContent} ${dt.nextElementSibling!.textContent}`).join('\n');
    expect(figures).toContain('Time to first audio 340 ms');
    expect(figures).toContain('First audio p50 240 ms · p95 240 ms over 1 turn');
    expect([...document.querySelectorAll('.turns tbody td')].map((td) => td.textContent)).toEqual(['1', '100 ms', '240 ms', '—', '—', '']);
  });

  it('lists events and marks in order with direction, time, type and summary; audio summarised; JSON on demand', async () => {
    m = await mountWithApp(HistoryEntryView, { route: '/history/run-call', props: { id: 'run-call' }, fake: { history: [callRun], sessions: { 'run-call': makeFakeSession({ events: 12 }) } } });
    await flushPromises();
    const texts = rows().map(rowText);
    expect(texts[0]).toBe('→ 0.000 s text.delta {"type":"text.delta","seq":0,"text":"word 0"}');
    expect(texts[1]).toBe('← 0.020 s transcript.partial {"type":"transcript.partial","seq":1,"text":"word 1"}');
    expect(texts[4]).toBe('→ 0.080 s audio.delta audio 20 ms, 640 B at 80 ms of its track');
    expect(texts[5]).toBe('◆ 0.100 s text_done');
    expect(texts).toHaveLength(14);
    expect(document.querySelector('.timeline-json')).toBeNull();
    rows()[1]!.click();
    await flushPromises();
    expect(JSON.parse(document.querySelector('.timeline-json pre')!.textContent!)).toEqual({ t: 20, direction: 'in', kind: 'json', data: { type: 'transcript.partial', seq: 1, text: 'word 1' } });
  });

  it('stays virtual over 50,000 events: a few dozen rows in the DOM, only the pages scrolled to are read', async () => {
    const big = makeFakeSession({ events: 50_000, marks: [] });
    m = await mountWithApp(HistoryEntryView, { route: '/history/run-call', props: { id: 'run-call' }, fake: { history: [callRun], sessions: { 'run-call': big } } });
    await flushPromises();
    expect(document.querySelector('.timeline-head')!.textContent).toContain('50,000 events');
    expect((document.querySelector('.timeline-spacer') as HTMLElement).style.height).toBe(`${50_000 * 26}px`);
    expect(rows().length).toBeLessThan(60);
    expect(timelineCalls()).toEqual([0]);

    await scrollTimelineTo(30_000 * 26);
    const shown = rows().map((r) => Number(r.dataset.index));
    expect(shown[0]).toBeLessThanOrEqual(30_000);
    expect(shown.at(-1)).toBeGreaterThan(30_000);
    expect(shown.length).toBeLessThan(60);
    expect(rowText(rows().find((r) => r.dataset.index === '30000')!)).toContain('"seq":30000');
    expect(timelineCalls()).toEqual([0, 29_500, 30_000]);

    // Keyboard: End goes to the last event, reading only its page.
    const scroller = document.querySelector<HTMLElement>('.timeline-scroller')!;
    scroller.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
    await flushPromises();
    expect(timelineCalls().at(-1)).toBe(49_500);
    expect(document.querySelector('.timeline-json pre')!.textContent).toContain('"t": 999980');
  });

  it('an unknown endpoint with no session recording keeps the text layout; a described text run is not probed', async () => {
    m = await mountWithApp(HistoryEntryView, { route: '/history/run-call', props: { id: 'run-call' }, fake: { history: [callRun] } });
    await flushPromises();
    expect(m.fake.controls.calls.filter((c) => c.method === 'history.session')).toHaveLength(1);
    expect(document.querySelector('.session-run')).toBeNull();
    expect(document.body.textContent).toContain('Conversation sent');
    m.wrapper.unmount();

    const chat = makeRecord({ id: 'run-chat' });
    m = await mountWithApp(HistoryEntryView, { route: '/history/run-chat', props: { id: 'run-chat' }, fake: { history: [chat], sessions: { 'run-chat': makeFakeSession() } } });
    await flushPromises();
    expect(m.fake.controls.calls.filter((c) => c.method === 'history.session')).toHaveLength(0);
    expect(document.querySelector('.session-run')).toBeNull();
  });
});
