import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import { nextTick } from 'vue';
import WaveformPlayer from '@/components/audio/WaveformPlayer.vue';
import { FakeWaveSurfer } from './fake-wavesurfer';

vi.mock('wavesurfer.js', () => import('./fake-wavesurfer'));

// "Hello" as the TTS result gives it (wire-notes §3.1), with the word's space and a second word.
const STAMPS = {
  graph_chars: ['H', 'e', 'l', 'l', 'o', ' ', 'y', 'o', 'u'],
  graph_times: [[0, 0.08], [0.08, 0.15], [0.15, 0.21], [0.21, 0.28], [0.28, 0.4], [0.4, 0.45], [0.45, 0.6], [0.6, 0.7], [0.7, 0.9]] as [number, number][],
};

let wrapper: VueWrapper;
function mountPlayer(props: Record<string, unknown>): VueWrapper {
  wrapper = mount(WaveformPlayer, { props: { src: '/media/abc?t=1', label: 'Speech', ...props }, attachTo: document.body, global: { plugins: [[PrimeVue, { theme: 'none' }]] } });
  return wrapper;
}
const last = (): FakeWaveSurfer => FakeWaveSurfer.instances.at(-1)!;
const lit = (): string => wrapper.findAll('.wf-text .ch.lit').map((s) => s.text() || ' ').join('');
const slider = () => wrapper.get('[role="slider"]');

beforeEach(() => (FakeWaveSurfer.instances = []));
afterEach(() => {
  wrapper?.unmount();
  document.body.innerHTML = '';
});

describe('WaveformPlayer', () => {
  it('audio known to be empty (duration 0) is said so: no wavesurfer to fail decoding it, no 0:00 clock waiting, play disabled', async () => {
    mountPlayer({ duration: 0, label: 'model' });
    await nextTick();
    expect(FakeWaveSurfer.instances).toHaveLength(0);
    expect(wrapper.get('[data-test="wf-empty"]').text()).toBe('No audio: model is empty (0:00), there is nothing to play.');
    expect(wrapper.get('button').attributes('disabled')).toBeDefined();
    expect(slider().attributes('aria-busy')).toBe('false');
    // Given its length later (a track now known), it loads as any other.
    await wrapper.setProps({ duration: 1.5 });
    expect(FakeWaveSurfer.instances.map((w) => w.options.url)).toEqual(['/media/abc?t=1']);
    expect(wrapper.find('[data-test="wf-empty"]').exists()).toBe(false);
  });

  it('plays the URL it is given, shows the clock, and is destroyed with the component', async () => {
    mountPlayer({});
    expect(FakeWaveSurfer.instances).toHaveLength(1);
    expect(last().options.url).toBe('/media/abc?t=1');
    last().emit('ready', 83.4);
    last().emit('timeupdate', 61.25);
    await nextTick();
    expect(wrapper.text()).toContain('1:01.2 / 1:23.4');
    expect(slider().attributes('aria-valuetext')).toBe('1:01.2 / 1:23.4');
    wrapper.unmount();
    expect(last().destroyed).toBe(true);
  });

  it('plays bytes given as a Blob without fetching a URL', async () => {
    const blob = new Blob([new Uint8Array(44)], { type: 'audio/wav' });
    mountPlayer({ src: blob });
    expect(last().options.url).toBeUndefined();
    expect(last().calls).toEqual([['loadBlob', blob, undefined, undefined]]);
  });

  it('a new src replaces the waveform (the old one destroyed)', async () => {
    mountPlayer({});
    const first = last();
    await wrapper.setProps({ src: '/media/def?t=2' });
    expect(first.destroyed).toBe(true);
    expect(FakeWaveSurfer.instances).toHaveLength(2);
    expect(last().options.url).toBe('/media/def?t=2');
  });

  it('Space plays and pauses; arrows seek by 1 s (Shift 5 s) within the audio; Home and End', async () => {
    mountPlayer({});
    const ws = last();
    ws.emit('ready', 10);
    await slider().trigger('keydown', { key: ' ' });
    expect(ws.playing).toBe(true);
    expect(wrapper.get('button').attributes('aria-label')).toBe('Pause Speech');
    await slider().trigger('keydown', { key: ' ' });
    expect(ws.playing).toBe(false);
    await slider().trigger('keydown', { key: 'ArrowRight' });
    await slider().trigger('keydown', { key: 'ArrowRight', shiftKey: true });
    await slider().trigger('keydown', { key: 'ArrowLeft' });
    await slider().trigger('keydown', { key: 'End' });
    await slider().trigger('keydown', { key: 'ArrowRight' });
    await slider().trigger('keydown', { key: 'Home' });
    await slider().trigger('keydown', { key: 'ArrowLeft' });
    expect(ws.calls.filter((c) => c[0] === 'setTime').map((c) => c[1])).toEqual([1, 6, 5, 10, 10, 0, 0]);
  });

  it('quick arrow presses step from the last seek, not from a late position the element reports', async () => {
    mountPlayer({});
    const ws = last();
    ws.emit('ready', 10);
    await slider().trigger('keydown', { key: 'ArrowRight' });
    ws.emit('timeupdate', 0); // from before the seek
    await slider().trigger('keydown', { key: 'ArrowRight' });
    ws.emit('timeupdate', 2.05); // the seek landed; playback goes on from there
    ws.emit('timeupdate', 2.5);
    await slider().trigger('keydown', { key: 'ArrowRight' });
    expect(ws.calls.filter((c) => c[0] === 'setTime').map((c) => c[1])).toEqual([1, 2, 3.5]);
  });

  it('lights the characters spoken so far as playback moves, back too when it seeks back', async () => {
    mountPlayer({ timestamps: STAMPS });
    const ws = last();
    ws.emit('ready', 0.9);
    await nextTick();
    expect(wrapper.get('.wf-text').text()).toBe('Hello you');
    // At 0 the first character (it starts at 0) is being spoken: lit, not waiting for the second.
    expect(lit()).toBe('H');
    expect(wrapper.get('.wf-text .ch.current').text()).toBe('H');
    ws.emit('timeupdate', 0.05);
    await nextTick();
    expect(lit()).toBe('H');
    ws.emit('timeupdate', 0.16);
    await nextTick();
    expect(lit()).toBe('Hel');
    expect(wrapper.get('.wf-text .ch.current').text()).toBe('l');
    ws.emit('timeupdate', 0.65);
    await nextTick();
    expect(lit()).toBe('Hello yo');
    ws.emit('timeupdate', 0.1);
    await nextTick();
    expect(lit()).toBe('He');
    expect(wrapper.findAll('.wf-text .ch.current')).toHaveLength(1);
  });

  it('clicking a character seeks to where it is spoken', async () => {
    mountPlayer({ timestamps: STAMPS });
    last().emit('ready', 0.9);
    await nextTick();
    await wrapper.findAll('.wf-text .ch')[6]!.trigger('click');
    expect(last().calls.at(-1)).toEqual(['setTime', 0.45]);
    expect(lit()).toBe('Hello y');
  });

  it('new timestamps replace the text and light it from the current time', async () => {
    mountPlayer({ timestamps: STAMPS });
    last().emit('ready', 0.9);
    last().emit('timeupdate', 0.3);
    await nextTick();
    await wrapper.setProps({ timestamps: { graph_chars: ['O', 'k'], graph_times: [[0, 0.2], [0.2, 0.5]] } });
    await nextTick();
    await nextTick();
    expect(wrapper.get('.wf-text').text()).toBe('Ok');
    expect(lit()).toBe('Ok');
    // Back to the start on fewer characters: the reused spans lose their old light.
    await wrapper.setProps({ timestamps: STAMPS });
    last().emit('timeupdate', 0);
    await nextTick();
    await nextTick();
    expect(lit()).toBe('H');
    expect(wrapper.findAll('.wf-text .ch.current')).toHaveLength(1);
  });

  it('streams a long recording (no fetch and decode of the whole file) and says its waveform is not drawn', async () => {
    mountPlayer({ duration: 30 * 60 });
    expect(last().options.url).toBe('/media/abc?t=1');
    expect(last().options.duration).toBe(1800);
    expect(last().options.peaks).toHaveLength(1);
    expect(wrapper.text()).toContain('Waveform not drawn for audio over 10:00');
    await wrapper.setProps({ src: '/media/short?t=1', duration: 4 });
    expect(last().options.peaks).toBeUndefined();
    expect(wrapper.text()).not.toContain('Waveform not drawn');
  });

  it('says so when the audio cannot be played', async () => {
    mountPlayer({});
    last().emit('error', new Error('HTTP 404'));
    await nextTick();
    expect(wrapper.get('[role="alert"]').text()).toBe('Could not play this audio: HTTP 404');
    expect(wrapper.get('button').attributes('disabled')).toBeDefined();
  });
});
