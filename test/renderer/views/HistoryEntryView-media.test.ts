import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import HistoryEntryView from '@/views/HistoryEntryView.vue';
import type { Endpoint } from '@shared/contract/runs';
import { mountWithApp, type Mounted } from '../mount-app';
import { makeRecord } from '../fake-data';
import { makeGalleryItem } from '../fake-workbench';
import { FakeWaveSurfer } from '../components/audio/fake-wavesurfer';

vi.mock('wavesurfer.js', () => import('../components/audio/fake-wavesurfer'));

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  document.body.innerHTML = '';
  FakeWaveSurfer.instances = [];
});

// The image endpoints' descriptors come with main's history work; the entry knows the family by name meanwhile.
const imageRun = makeRecord({
  id: 'run-img3',
  endpoint: 'images.generations' as Endpoint,
  model: 'svc-image-1',
  costTicks: 1_400_000_000,
  output: { data: [{ url: 'https://cdn/x.png', revised_prompt: 'a fox, snowy' }], usage: { cost_in_usd_ticks: 1_400_000_000 } } as never,
  request: { method: 'POST', url: 'http://127.0.0.1:4010/v1/images/generations', headers: {}, body: { model: 'svc-image-1', prompt: 'a fox', n: 2, aspect_ratio: '16:9' } },
});

describe('HistoryEntryView (media runs)', () => {
  it('shows the prompt and fields sent, the cost, and the run’s gallery items as a strip opening in the Gallery', async () => {
    const made = [makeGalleryItem({ id: 'gal_runthree1', runId: 'run-img3' }), makeGalleryItem({ id: 'gal_runthree2', runId: 'run-img3' })];
    const input = makeGalleryItem({ id: 'gal_runinput1', runId: 'run-img3', origin: 'input' });
    m = await mountWithApp(HistoryEntryView, { route: '/history/run-img3', props: { id: 'run-img3' }, fake: { history: [imageRun], gallery: [...made, input, makeGalleryItem({ id: 'gal_otherrun1' })] } });
    await flushPromises();
    const text = document.body.textContent ?? '';
    expect(text).toContain('a fox');
    expect(text).toContain('n 2 · aspect_ratio 16:9');
    expect(text).toContain('$0.14');
    expect(m.fake.controls.calls.find((c) => c.method === 'gallery.ofRun')?.input).toEqual({ runId: 'run-img3' });
    const links = [...document.querySelectorAll<HTMLAnchorElement>('.media-strip a')].map((a) => a.getAttribute('href'));
    expect(links).toEqual(['/gallery?open=gal_runthree1', '/gallery?open=gal_runthree2', '/gallery?open=gal_runinput1']);
    expect(text).toContain('Sent as inputs');
  });

  it('heads a transcription run as a transcription of its file, plays its kept audio as a waveform with the spoken word lit, and seeks on a word', async () => {
    const run = makeRecord({ id: 'run-stt9', endpoint: 'transcription.transcribe' as Endpoint, model: '', promptPreview: 'two-voices.wav', output: null as never });
    // The fake answers transcription.ofRun from its controls, set once mounted: open another run first.
    m = await mountWithApp(HistoryEntryView, { route: '/history/run-img3', props: { id: 'run-img3' }, fake: { history: [run, imageRun] } });
    const audio = makeGalleryItem({ id: 'gal_audio0009', kind: 'audio', origin: 'input', name: 'two-voices.wav', mime: 'audio/wav', runId: 'run-stt9' });
    const words = [
      { text: 'hello', start: 0.2, end: 0.6, speaker: 0 },
      { text: 'there', start: 1.4, end: 1.9, speaker: 1 },
    ];
    m.fake.controls.transcription.results.set('run-stt9', { runId: 'run-stt9', filename: 'two-voices.wav', audio, durationMs: 500, result: { text: 'hello there', duration: 2, words } });
    await m.wrapper.setProps({ id: 'run-stt9' });
    await flushPromises();
    expect(document.querySelector('h1')?.textContent).toBe('Transcription · two-voices.wav');
    const player = FakeWaveSurfer.instances.at(-1)!;
    expect(player.options.url).toBe(audio.url.url);
    player.emit('ready', 2);
    player.emit('timeupdate', 1.5);
    await flushPromises();
    expect([...document.querySelectorAll('.word.lit')].map((w) => w.textContent)).toEqual(['there']);
    (document.querySelectorAll<HTMLElement>('[data-testid="word"]')[0]!).click();
    await flushPromises();
    expect(player.calls.filter((c) => c[0] === 'setTime')).toEqual([['setTime', 0.2]]);
    expect([...document.querySelectorAll('.word.lit')].map((w) => w.textContent)).toEqual(['hello']);
  });
});
