/**
 * The Gallery's list: every image and video, newest first, read from main in pages of 200 as the
 * grid scrolls (the first page's `total` sizes the virtual grid), filtered by words and kind
 * (main searches its local index, so this works offline), and kept live by `gallery.changed`.
 * Thumbnails missing from items in view are made by the page a few at a time and handed to main.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef, triggerRef } from 'vue';
import type { GalleryItem, GalleryKind } from '@shared/contract/gallery';
import type { WorkbenchError } from '@shared/contract/errors';
import { useWorkbench } from '../api';
import { toWorkbenchError } from '../lib/errors';
import { makeThumbnail } from '../lib/thumbnail';
import { AUDIO_THUMB_MAX_SECONDS } from '../lib/audio-peaks';
import { onLinkRegained } from '../composables/use-link-regained';

export const GALLERY_PAGE = 200;
/** Thumbnails made at once (each decodes a full-size image or a video). */
export const THUMB_CONCURRENCY = 2;

export type GalleryKindFilter = 'all' | GalleryKind;

function matches(item: GalleryItem, query: string, kind: GalleryKindFilter): boolean {
  if (kind !== 'all' && item.kind !== kind) return false;
  const fields = [item.prompt, item.revisedPrompt ?? '', item.model ?? '', item.name].join('\n').toLowerCase();
  return query.toLowerCase().split(/\s+/).filter(Boolean).every((w) => fields.includes(w));
}

export const useGalleryStore = defineStore('gallery', () => {
  const query = ref('');
  const kind = ref<GalleryKindFilter>('all');
  /** The items read so far, in list order (the first `items.length` of `total`). */
  const items = shallowRef<GalleryItem[]>([]);
  const total = ref(0);
  const next = ref<string | null>(null);
  const loaded = ref(false);
  const loading = ref(false);
  const error = ref<WorkbenchError | null>(null);
  /** Bumped by each new listing, so a slow answer for an old query is dropped. */
  let generation = 0;
  let paging: Promise<void> | null = null;
  let pagingToken: object | null = null;

  const empty = computed(() => loaded.value && total.value === 0);
  // Cut off from main, the grid missed what was added or removed meanwhile: list it again.
  onLinkRegained(() => (loaded.value || error.value) && void reload());

  function listInput(after?: string) {
    return {
      limit: GALLERY_PAGE,
      ...(query.value.trim() ? { query: query.value.trim() } : {}),
      ...(kind.value !== 'all' ? { kind: kind.value } : {}),
      ...(after ? { after } : {}),
    };
  }

  /** Lists from the start (a new query or kind, or opening the view). */
  async function reload(): Promise<void> {
    const gen = ++generation;
    paging = null;
    pagingToken = null;
    loading.value = true;
    try {
      const page = await useWorkbench().gallery.list(listInput());
      if (gen !== generation) return;
      items.value = page.items;
      total.value = page.total;
      next.value = page.next;
      error.value = null;
      loaded.value = true;
    } catch (err) {
      if (gen === generation) error.value = toWorkbenchError(err);
    } finally {
      if (gen === generation) loading.value = false;
    }
  }

  /** Reads pages until the items up to `end` are here (the grid scrolled there). */
  function ensure(end: number): Promise<void> {
    if (paging) return paging;
    if (items.value.length >= Math.min(end, total.value) || !next.value) return Promise.resolve();
    const gen = generation;
    const token = {};
    pagingToken = token;
    const run = (async () => {
      try {
        while (gen === generation && next.value && items.value.length < Math.min(end, total.value)) {
          const page = await useWorkbench().gallery.list(listInput(next.value));
          if (gen !== generation) return;
          const have = new Set(items.value.map((i) => i.id));
          items.value = [...items.value, ...page.items.filter((i) => !have.has(i.id))];
          total.value = Math.max(page.total, items.value.length);
          next.value = page.next;
        }
      } catch (err) {
        if (gen === generation) error.value = toWorkbenchError(err);
      } finally {
        if (pagingToken === token) {
          paging = null;
          pagingToken = null;
        }
      }
    })();
    paging = run;
    return run;
  }

  /** `gallery.changed`: a new item goes first (when it fits the filter), a changed one is replaced, a removed one goes. */
  function apply(change: { item: GalleryItem | null; id: string; removed: boolean }): void {
    const at = items.value.findIndex((i) => i.id === change.id);
    if (change.removed) {
      if (at < 0) return;
      items.value.splice(at, 1);
      total.value = Math.max(0, total.value - 1);
      triggerRef(items);
      return;
    }
    const item = change.item;
    if (!item) return;
    if (at >= 0) {
      items.value[at] = item;
      triggerRef(items);
    } else if (loaded.value && matches(item, query.value, kind.value)) {
      items.value = [item, ...items.value];
      total.value += 1;
    }
  }

  function itemAt(index: number): GalleryItem | undefined {
    return items.value[index];
  }

  async function remove(id: string): Promise<boolean> {
    const { removed } = await useWorkbench().gallery.remove({ id });
    if (removed) apply({ item: null, id, removed: true });
    return removed;
  }

  // Thumbnails: a queue of ids, THUMB_CONCURRENCY at a time; each id tried once per session.
  const tried = new Set<string>();
  const queue: GalleryItem[] = [];
  let running = 0;
  /** How many thumbnails this page made (for the status line and tests). */
  const thumbsMade = ref(0);

  function pump(): void {
    while (running < THUMB_CONCURRENCY && queue.length) {
      const item = queue.shift()!;
      running += 1;
      void (async () => {
        try {
          const thumb = await makeThumbnail(item);
          const updated = await useWorkbench().gallery.setThumb({ id: item.id, mime: thumb.mime, bytes: thumb.bytes });
          thumbsMade.value += 1;
          apply({ item: updated, id: updated.id, removed: false });
        } catch {
          // Undecodable or refused: the tile keeps its placeholder (the full image still opens).
        } finally {
          running -= 1;
          pump();
        }
      })();
    }
  }

  /** Asks for thumbnails of the items in view that have none; items scrolled away leave the queue. */
  function wantThumbs(visible: readonly GalleryItem[]): void {
    const ids = new Set(visible.map((i) => i.id));
    for (let k = queue.length - 1; k >= 0; k--) {
      if (!ids.has(queue[k]!.id)) {
        tried.delete(queue[k]!.id);
        queue.splice(k, 1);
      }
    }
    for (const item of visible) {
      // Audio gets a mini waveform when it is short enough to decode whole in the page; a longer
      // recording's tile keeps its icon and length.
      if (item.thumbUrl || tried.has(item.id) || (item.kind === 'audio' && !((item.duration ?? Infinity) <= AUDIO_THUMB_MAX_SECONDS))) continue;
      tried.add(item.id);
      queue.push(item);
    }
    pump();
  }

  return { query, kind, items, total, next, loaded, loading, error, empty, thumbsMade, reload, ensure, apply, itemAt, remove, wantThumbs };
});
