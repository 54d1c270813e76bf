import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import type { GalleryItem } from '@shared/contract/gallery';
import { button, mountWithApp, type Mounted } from '../mount-app';
import { makeGalleryItem } from '../fake-workbench';
import { FakeWaveSurfer } from '../components/audio/fake-wavesurfer';

const made: string[] = [];
vi.mock('@/lib/thumbnail', () => ({
  makeThumbnail: vi.fn(async (item: GalleryItem) => {
    made.push(item.id);
    return { mime: 'image/webp', bytes: new Uint8Array([1, 2, 3]) };
  }),
}));
vi.mock('wavesurfer.js', () => import('../components/audio/fake-wavesurfer'));

const { default: GalleryView } = await import('@/views/GalleryView.vue');

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  document.body.innerHTML = '';
  made.length = 0;
  FakeWaveSurfer.instances = [];
});

// A call's stereo mix as main keeps it (recording's session-mix.ts): kind audio, origin recorded, no thumbnail.
const call = makeGalleryItem({ id: 'gal_callmix01', kind: 'audio', origin: 'recorded', mime: 'audio/wav', width: null, height: null, duration: 83.52, prompt: '', name: 'realtime (ended abnormally).wav', runId: 'run-call', thumbUrl: null, model: null });
const image = makeGalleryItem({ id: 'gal_picture01', thumbUrl: null });

describe('GalleryView (audio)', () => {
  it('shows an audio tile with its length and an icon, makes a waveform thumbnail only for audio short enough, and filters by Audio', async () => {
    const long = makeGalleryItem({ ...call, id: 'gal_longcall01', duration: 45 * 60, name: 'long call.wav' });
    m = await mountWithApp(GalleryView, { route: '/gallery', fake: { gallery: [call, image, long] } });
    const tile = document.querySelector<HTMLElement>('.tile[data-id="gal_callmix01"]')!;
    expect(tile.textContent).toContain('Audio:');
    expect(tile.querySelector('.tile-badge')?.textContent?.trim()).toBe('1:23');
    expect(tile.querySelector('.pi-volume-up')).not.toBeNull();
    await flushPromises();
    expect(made.sort()).toEqual(['gal_callmix01', 'gal_picture01']);
    expect(document.querySelector('.tile[data-id="gal_longcall01"] .tile-badge')?.textContent?.trim()).toBe('45:00');

    button(m.wrapper, 'Audio').click();
    await flushPromises();
    expect(m.fake.controls.calls.filter((c) => c.method === 'gallery.list').at(-1)?.input).toEqual({ limit: 200, kind: 'audio' });
    expect([...document.querySelectorAll<HTMLElement>('.tile[data-id]')].map((t) => t.dataset.id)).toEqual(['gal_callmix01', 'gal_longcall01']);
  });

  it('opens an audio item in a waveform player, with its run linked and no image or video actions', async () => {
    m = await mountWithApp(GalleryView, { route: '/gallery', fake: { gallery: [call, image] } });
    document.querySelector<HTMLElement>('.tile[data-id="gal_callmix01"]')!.click();
    await flushPromises();
    expect(FakeWaveSurfer.instances.map((w) => w.options.url)).toEqual([call.url.url]);
    const dialog = document.querySelector('.gallery-viewer')!;
    expect(dialog.querySelector('[role="slider"]')?.getAttribute('aria-label')).toBe('realtime (ended abnormally).wav position');
    expect(dialog.querySelector('video, img')).toBeNull();
    const labels = [...dialog.querySelectorAll('button')].map((b) => b.textContent?.trim()).filter(Boolean);
    expect(labels).toEqual(expect.arrayContaining(['Save', 'Copy', 'Delete']));
    expect(labels).not.toContain('Edit video');
    expect(labels).not.toContain('Edit');
    expect(dialog.textContent).toContain('Recorded');
    expect(dialog.querySelector('a[href="/history/run-call"]')).not.toBeNull();
    // Closing the viewer disposes of the player.
    button(m.wrapper, 'Close').click();
    await flushPromises();
    expect(FakeWaveSurfer.instances[0]!.destroyed).toBe(true);
  });
});
