import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { defineComponent, h } from 'vue';
import ConfirmDialog from 'primevue/confirmdialog';
import type { GalleryItem } from '@shared/contract/gallery';
import { button, mountWithApp, type Mounted } from '../mount-app';
import { makeGalleryItem } from '../fake-workbench';

// Decoding needs a real browser (the bench covers it); here a thumbnail is three bytes.
const made: string[] = [];
vi.mock('@/lib/thumbnail', () => ({
  makeThumbnail: vi.fn(async (item: GalleryItem) => {
    made.push(item.id);
    return { mime: 'image/webp', bytes: new Uint8Array([1, 2, 3]) };
  }),
}));

const { default: GalleryView } = await import('@/views/GalleryView.vue');
/** The view plus the app-level confirm dialog it asks through. */
const WithConfirm = defineComponent({ setup: () => () => h('div', [h(GalleryView), h(ConfirmDialog)]) });

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  made.length = 0;
});

/** `count` items, newest first; those at `noThumb` have no thumbnail yet. */
function items(count: number, noThumb: number[] = []): GalleryItem[] {
  return Array.from({ length: count }, (_, i) =>
    makeGalleryItem({
      id: `gal_item${String(i).padStart(5, '0')}`,
      kind: i % 10 === 9 ? 'video' : 'image',
      prompt: i === 7 ? 'a heron at dawn' : `picture ${i}`,
      createdAt: 1_760_000_000_000 - i * 60_000,
      ...(noThumb.includes(i) ? { thumbUrl: null } : {}),
    }),
  );
}

const tiles = (): HTMLElement[] => [...document.querySelectorAll<HTMLElement>('.tile[data-index]')];
const indexes = (): number[] => tiles().map((t) => Number(t.dataset.index));
const scroller = (): HTMLElement => document.querySelector('.gallery-scroller')!;
const listCalls = (): unknown[] => m.fake.controls.calls.filter((c) => c.method === 'gallery.list').map((c) => c.input);

function key(k: string): void {
  (document.activeElement ?? scroller()).dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
}

describe('GalleryView', () => {
  it('renders only the rows in view of 2,000 items, sized by total, and scrolling changes which', async () => {
    m = await mountWithApp(GalleryView, { route: '/gallery', fake: { gallery: items(2000) } });
    expect(document.body.textContent).toContain('2,000 items');
    expect(listCalls()).toEqual([{ limit: 200 }]);
    const first = indexes();
    expect(first[0]).toBe(0);
    expect(first.length).toBeGreaterThan(5);
    expect(first.length).toBeLessThan(60);
    // The spacer holds every row's height, so the scroll bar is right before pages are read.
    const rows = Math.ceil(2000 / Number(scroller().getAttribute('aria-colcount')));
    expect((document.querySelector('.gallery-spacer') as HTMLElement).style.height).toBe(`${rows * 200}px`);

    scroller().scrollTop = 200 * 200;
    scroller().dispatchEvent(new Event('scroll'));
    await vi.waitFor(() => expect(indexes()[0]).toBeGreaterThan(900));
    const later = indexes();
    expect(later.length).toBeLessThan(60);
    expect(later).not.toContain(0);
    // Pages were read up to there with the cursor, 200 at a time.
    expect(listCalls().length).toBeGreaterThan(4);
    expect(listCalls()[1]).toEqual({ limit: 200, after: 'gal_item00199' });
  });

  it('searches (debounced) with the query and filters by kind', async () => {
    m = await mountWithApp(GalleryView, { route: '/gallery', fake: { gallery: items(50) } });
    await m.wrapper.find('#gallery-search').setValue('heron');
    await vi.waitFor(() => expect(listCalls().at(-1)).toEqual({ limit: 200, query: 'heron' }));
    await vi.waitFor(() => expect(tiles()).toHaveLength(1));
    expect(tiles()[0]!.textContent).toContain('a heron at dawn');
    await m.wrapper.find('#gallery-search').setValue('');
    (document.querySelector('[aria-label="Kind"] [aria-label="Videos"], [aria-label="Kind"] button:nth-child(3)') as HTMLElement | null)?.click();
    await vi.waitFor(() => expect(listCalls().at(-1)).toEqual({ limit: 200, kind: 'video' }));
    await vi.waitFor(() => expect(tiles()).toHaveLength(5));
  });

  it('makes thumbnails only for visible items that have none, and shows them when main has them', async () => {
    m = await mountWithApp(GalleryView, { route: '/gallery', fake: { gallery: items(400, [3, 60, 350]) } });
    await vi.waitFor(() => expect(made).toEqual(['gal_item00003']));
    await flushPromises();
    expect(m.fake.controls.calls.filter((c) => c.method === 'gallery.setThumb').map((c) => c.input)).toEqual([{ id: 'gal_item00003', mime: 'image/webp', size: 3 }]);
    // The new thumbnail came back through gallery.changed.
    expect(document.querySelector('[data-index="3"] img')?.getAttribute('src')).toMatch(/thumb-/);
  });

  it('moves between tiles with the arrow keys and opens one with Enter', async () => {
    m = await mountWithApp(GalleryView, { route: '/gallery', fake: { gallery: items(100) } });
    const cols = Number(scroller().getAttribute('aria-colcount'));
    tiles()[0]!.focus();
    key('ArrowRight');
    await flushPromises();
    expect(document.activeElement?.getAttribute('data-index')).toBe('1');
    key('ArrowDown');
    await flushPromises();
    expect(document.activeElement?.getAttribute('data-index')).toBe(String(1 + cols));
    key('ArrowLeft');
    await flushPromises();
    expect(document.activeElement?.getAttribute('data-index')).toBe(String(cols));
    key('Enter');
    await flushPromises();
    const dialog = document.querySelector('.gallery-viewer');
    expect(dialog?.textContent).toContain(`picture ${cols}`);
  });

  it('asks before deleting, says the History run stays, then removes the tile', async () => {
    const list = items(3).map((i) => ({ ...i, runId: 'run-img1' }));
    m = await mountWithApp(WithConfirm, { route: '/gallery', fake: { gallery: list } });
    tiles()[0]!.click();
    await flushPromises();
    button(m.wrapper, 'Delete').click();
    await flushPromises();
    const confirm = document.querySelector('.p-confirmdialog');
    expect(confirm?.textContent).toContain('The History run that made it stays');
    expect(m.fake.controls.calls.some((c) => c.method === 'gallery.remove')).toBe(false);
    (confirm!.querySelector('.p-confirmdialog-accept-button') as HTMLElement).click();
    await flushPromises();
    expect(m.fake.controls.calls.find((c) => c.method === 'gallery.remove')?.input).toEqual({ id: 'gal_item00000' });
    await vi.waitFor(() => expect(indexes()).toEqual([0, 1]));
    expect(document.body.textContent).toContain('2 items');
  });

  it('adds a new item live (gallery.changed) and says how to get images when empty', async () => {
    m = await mountWithApp(GalleryView, { route: '/gallery', fake: { gallery: [] } });
    expect(document.body.textContent).toContain('The gallery is empty');
    expect(document.body.textContent).toContain('Images playground');
    const fresh = makeGalleryItem({ id: 'gal_freshnew1', prompt: 'just made' });
    m.fake.controls.emitGalleryChanged({ item: fresh, id: fresh.id, removed: false });
    await flushPromises();
    expect(tiles()[0]!.textContent).toContain('just made');
  });

  it('opens ?open=<id> in the viewer, with Edit going to /images?edit=<id>', async () => {
    const list = items(3);
    m = await mountWithApp(GalleryView, { route: '/gallery?open=gal_item00001', fake: { gallery: list } });
    await flushPromises();
    const push = vi.spyOn(m.router, 'push');
    expect(document.querySelector('.gallery-viewer')?.textContent).toContain('picture 1');
    button(m.wrapper, 'Edit').click();
    expect(push).toHaveBeenCalledWith({ path: '/images', query: { edit: 'gal_item00001' } });
  });
});
