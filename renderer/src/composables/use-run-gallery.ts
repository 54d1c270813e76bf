/**
 * The gallery items of one run, kept current: read with `gallery.ofRun` whenever the run changes
 * (an answer for a run no longer shown is dropped), then followed through `gallery.changed` (an
 * item of the run added or updated, one removed). History's run details use it for the media a
 * run made or sent (MediaRunDetails) and a call's stereo mix, which lands in the gallery just
 * after the session closes (SessionRunDetails).
 */
import { ref, watch, type Ref } from 'vue';
import type { GalleryItem } from '@shared/contract/gallery';
import { useWorkbench } from '../api';
import { useWorkbenchEvent } from './use-workbench-event';

export function useRunGallery(runId: () => string, keep: (item: GalleryItem) => boolean = () => true): { items: Ref<GalleryItem[]>; loaded: Ref<boolean> } {
  const items = ref<GalleryItem[]>([]);
  /** Whether the current run's items have been read (or failed to be: then none are shown). */
  const loaded = ref(false);

  async function load(id: string): Promise<void> {
    let read: GalleryItem[];
    try {
      read = await useWorkbench().gallery.ofRun({ runId: id });
    } catch {
      read = [];
    }
    if (id !== runId()) return;
    items.value = read.filter(keep);
    loaded.value = true;
  }

  watch(
    runId,
    (id) => {
      items.value = [];
      loaded.value = false;
      void load(id);
    },
    { immediate: true },
  );
  useWorkbenchEvent('gallery', 'changed', (c) => {
    if (c.removed) items.value = items.value.filter((i) => i.id !== c.id);
    else if (c.item?.runId === runId() && keep(c.item)) {
      const item = c.item;
      const at = items.value.findIndex((i) => i.id === c.id);
      items.value = at >= 0 ? items.value.map((i) => (i.id === c.id ? item : i)) : [...items.value, item];
    }
  });
  return { items, loaded };
}
