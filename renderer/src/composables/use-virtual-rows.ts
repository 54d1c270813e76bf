/**
 * A virtual list: `count` rows of one fixed height in a scrolling element, only the rows in view
 * (plus `overscan` each side) rendered — the call console's event log and History's session
 * timeline both draw 50,000 rows this way. A one-column `useVirtualGrid`, plus what a list of
 * messages needs on top of it:
 * - `follow`: while the list is scrolled to its end, new rows scroll into view (scrolling up stops
 *   following, scrolling back to the end resumes it; rows arriving faster than the scroll events
 *   do not);
 * - a count that shrinks (a filter) clamps the scroll position: the window of rows drawn is worked
 *   out again from the clamped one, after the DOM has the new height;
 * - keyboard moves (arrows, Page Up/Down, Home, End) as the index they lead to.
 *
 *   const list = useVirtualRows({ container, count: () => rows.value.length, rowHeight: 24, follow: true });
 *   <div ref="container" @scroll.passive="list.onScroll"><div :style="{ height: `${list.totalHeight.value}px` }">
 *     <div :style="{ transform: `translateY(${list.offsetY.value}px)` }"> v-for="i in list.indexes.value" …
 */
import { computed, ref, watch, type Ref } from 'vue';
import { useVirtualGrid } from './use-virtual-grid';
import { afterNextFrame } from '../lib/frame';

export interface VirtualRowsOptions {
  container: Ref<HTMLElement | null>;
  count: () => number;
  rowHeight: number;
  /** Rows drawn beyond each edge of the view (default 8: a fast wheel does not show blanks). */
  overscan?: number;
  /** Used while the element has no size yet (not laid out, or a test DOM). */
  fallback?: { width: number; height: number };
  /** Keep the newest row in view as rows come, while the list is at its end (default false). */
  follow?: boolean;
}

/** Keys that move through a list, and by how much (`page`: a screenful). */
const MOVES: Record<string, 'up' | 'down' | 'pageUp' | 'pageDown' | 'home' | 'end'> = {
  ArrowUp: 'up',
  ArrowDown: 'down',
  PageUp: 'pageUp',
  PageDown: 'pageDown',
  Home: 'home',
  End: 'end',
};

export function useVirtualRows(options: VirtualRowsOptions) {
  const fallback = options.fallback ?? { width: 800, height: 320 };
  // One column: a list is a grid whose tiles are as wide as anything.
  const grid = useVirtualGrid({ container: options.container, count: options.count, tileWidth: Number.MAX_SAFE_INTEGER, rowHeight: options.rowHeight, overscan: options.overscan ?? 8, fallback });
  const following = ref(options.follow ?? false);

  /** Indexes of the rows drawn, in order. */
  const indexes = computed(() => {
    const out: number[] = [];
    for (let i = grid.start.value; i < grid.end.value; i++) out.push(i);
    return out;
  });

  // Following scrolls once the next frame is drawn, not in this post-flush watcher: reading or
  // writing scrollTop right after the update forced a layout of the whole page inside the task
  // that changed it (a busy call's event log, test/bench/realtime-event-log-chromium.ts). Nor in the
  // next frame's callbacks: another callback before it may change the page (the call console draws
  // a part of itself in one each frame), and the read forced that layout too. A task queued from a
  // frame callback runs after the frame's rendering, when the page is laid out.
  let followQueued = false;
  /** Where following last scrolled to (null: it has not yet): a scroll above it is the user's. */
  let ownTop: number | null = null;
  function followEnd(): void {
    followQueued = false;
    const n = options.count();
    if (following.value && n > 0) {
      grid.scrollToIndex(n - 1);
      // (Laid out already by the scroll just written: a free read.)
      ownTop = options.container.value?.scrollTop ?? null;
    } else grid.onScroll();
  }
  watch(
    options.count,
    (n, before) => {
      // A list that shrank (a filter) is clamped now, not a frame later: the window worked out from
      // the old scroll position would draw no rows meanwhile. Rows only added wait for the frame.
      // Rows only added while not following leave the scroll position where it was: nothing to
      // read (reading scrollTop here forced a layout of the page per frame of a busy call).
      if (n < before || (n > 0 && !following.value && before === 0)) grid.onScroll();
      else if (!(following.value && n > 0)) return;
      else if (!followQueued) {
        followQueued = true;
        afterNextFrame(followEnd);
      }
    },
    { flush: 'post' },
  );

  /**
   * Following stops when the user scrolls above where following put the list; reaching the end
   * resumes it. A busy log adds rows between following's scroll and its scroll event, so "at the
   * end" alone read that lag as the user leaving, and the log stopped following (then every update
   * read the scroll position again, a forced layout per frame).
   */
  function onScroll(): void {
    grid.onScroll();
    const el = options.container.value;
    if (!options.follow || !el) return;
    const top = el.scrollTop;
    const atEnd = top + el.clientHeight >= el.scrollHeight - options.rowHeight * 2;
    following.value = atEnd || (following.value && ownTop !== null && top >= ownTop);
  }

  /** Whole rows the element shows at once. */
  function rowsInView(): number {
    return Math.max(1, Math.floor((options.container.value?.clientHeight || fallback.height) / options.rowHeight));
  }

  /**
   * The index a navigation key leads to from `from` (-1: nothing selected yet, so Down goes to the
   * first row), clamped to the list; null for a key that is not a move or an empty list.
   */
  function keyTarget(key: string, from: number): number | null {
    const move = MOVES[key];
    const last = options.count() - 1;
    if (!move || last < 0) return null;
    const page = rowsInView();
    const to = { up: from - 1, down: from + 1, pageUp: from - page, pageDown: from + page, home: 0, end: last }[move];
    return Math.min(Math.max(0, to), last);
  }

  return {
    totalHeight: grid.totalHeight,
    start: grid.start,
    end: grid.end,
    offsetY: grid.offsetY,
    indexes,
    /** Whether new rows scroll into view (only with `follow`). */
    following,
    onScroll,
    scrollToIndex: grid.scrollToIndex,
    rowsInView,
    keyTarget,
  };
}
