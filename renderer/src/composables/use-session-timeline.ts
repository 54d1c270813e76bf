/**
 * A recorded session's timeline read a page at a time (`history.timeline`) as a virtual list
 * scrolls: `total` sizes the list before anything is read, `ensure(start, end)` reads the pages
 * that range needs (one request per page at a time, however fast the scroll), and only the most
 * recently used pages are kept, so a call of 50,000 events costs a few pages of memory.
 */
import { shallowRef, triggerRef } from 'vue';
import type { TimelineItem } from '@shared/contract/history';
import type { WorkbenchError } from '@shared/contract/errors';
import { useWorkbench } from '../api';
import { toWorkbenchError } from '../lib/errors';

export const TIMELINE_PAGE = 500;
/** Pages kept (the rest are read again when scrolled back to). */
export const TIMELINE_PAGES_KEPT = 12;

export function useSessionTimeline(id: () => string, initialTotal: () => number) {
  /** Page index → its items; a Map in insertion order doubles as the LRU. */
  const pages = shallowRef(new Map<number, TimelineItem[]>());
  const total = shallowRef(initialTotal());
  const error = shallowRef<WorkbenchError | null>(null);
  const inFlight = new Map<number, Promise<void>>();
  let generation = 0;

  function reset(): void {
    generation++;
    inFlight.clear();
    pages.value = new Map();
    total.value = initialTotal();
    error.value = null;
  }

  function itemAt(index: number): TimelineItem | undefined {
    const page = pages.value.get(Math.floor(index / TIMELINE_PAGE));
    return page?.[index % TIMELINE_PAGE];
  }

  function readPage(p: number): Promise<void> {
    const pending = inFlight.get(p);
    if (pending) return pending;
    const gen = generation;
    const run = (async () => {
      try {
        const page = await useWorkbench().history.timeline({ id: id(), offset: p * TIMELINE_PAGE, limit: TIMELINE_PAGE });
        if (gen !== generation) return;
        const map = pages.value;
        map.delete(p);
        map.set(p, page.items);
        while (map.size > TIMELINE_PAGES_KEPT) map.delete(map.keys().next().value!);
        // The session may still be growing: the newest count wins.
        total.value = page.total;
        error.value = null;
        triggerRef(pages);
      } catch (err) {
        if (gen === generation) error.value = toWorkbenchError(err);
      } finally {
        if (gen === generation) inFlight.delete(p);
      }
    })();
    inFlight.set(p, run);
    return run;
  }

  /** Reads the pages rows [start, end) fall in that are not here yet; marks the rest as recently used. */
  async function ensure(start: number, end: number): Promise<void> {
    const last = Math.min(end, total.value) - 1;
    if (last < start) return;
    const wanted: Promise<void>[] = [];
    for (let p = Math.floor(start / TIMELINE_PAGE); p <= Math.floor(last / TIMELINE_PAGE); p++) {
      const map = pages.value;
      const page = map.get(p);
      if (page) {
        map.delete(p);
        map.set(p, page);
      } else wanted.push(readPage(p));
    }
    await Promise.all(wanted);
  }

  return { total, error, pages, itemAt, ensure, reset };
}
