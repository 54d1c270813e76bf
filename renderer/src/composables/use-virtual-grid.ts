/**
 * A virtual grid: `count` tiles of a fixed size in a scrolling element, only the rows in view
 * (plus `overscan` rows each side) rendered. The element's size is followed with a
 * ResizeObserver; the columns follow its width. Rows have one fixed height, so the scroll
 * height (`count` rows' worth) is known before any item is loaded.
 *
 *   const grid = useVirtualGrid({ container, count: () => total.value, tileWidth: 180, rowHeight: 200 });
 *   <div ref="container" @scroll="grid.onScroll"><div :style="{ height: grid.totalHeight + 'px' }">...
 */
import { computed, onScopeDispose, shallowRef, watch, type Ref } from 'vue';

export interface VirtualGridOptions {
  container: Ref<HTMLElement | null>;
  count: () => number;
  /** Smallest tile width (gap included); the columns share the rest. */
  tileWidth: number;
  rowHeight: number;
  overscan?: number;
  /** Used while the element has no size yet (not laid out, or a test DOM). */
  fallback?: { width: number; height: number };
}

export function useVirtualGrid(options: VirtualGridOptions) {
  const overscan = options.overscan ?? 2;
  const fallback = options.fallback ?? { width: 1024, height: 768 };
  const width = shallowRef(0);
  const height = shallowRef(0);
  const scrollTop = shallowRef(0);

  const measure = (): void => {
    const el = options.container.value;
    width.value = el?.clientWidth || fallback.width;
    height.value = el?.clientHeight || fallback.height;
  };

  let observer: ResizeObserver | null = null;
  watch(
    options.container,
    (el) => {
      observer?.disconnect();
      measure();
      if (el && typeof ResizeObserver !== 'undefined') {
        observer = new ResizeObserver(measure);
        observer.observe(el);
      }
    },
    { immediate: true, flush: 'post' },
  );
  onScopeDispose(() => observer?.disconnect());

  const columns = computed(() => Math.max(1, Math.floor(width.value / options.tileWidth)));
  const rows = computed(() => Math.ceil(options.count() / columns.value));
  const totalHeight = computed(() => rows.value * options.rowHeight);
  const firstRow = computed(() => Math.max(0, Math.floor(scrollTop.value / options.rowHeight) - overscan));
  const lastRow = computed(() => Math.min(rows.value, Math.ceil((scrollTop.value + height.value) / options.rowHeight) + overscan));
  /** Index range [start, end) of the rendered tiles. */
  const start = computed(() => firstRow.value * columns.value);
  const end = computed(() => Math.min(options.count(), lastRow.value * columns.value));
  /** Index range of the tiles actually in view (no overscan): thumbnails are made for these. */
  const visibleStart = computed(() => Math.floor(scrollTop.value / options.rowHeight) * columns.value);
  const visibleEnd = computed(() => Math.min(options.count(), Math.ceil((scrollTop.value + height.value) / options.rowHeight) * columns.value));
  const offsetY = computed(() => firstRow.value * options.rowHeight);

  function onScroll(): void {
    scrollTop.value = options.container.value?.scrollTop ?? 0;
  }

  /** Scrolls the least needed for tile `index` to be in view. */
  function scrollToIndex(index: number): void {
    const el = options.container.value;
    if (!el) return;
    const top = Math.floor(index / columns.value) * options.rowHeight;
    const viewHeight = el.clientHeight || height.value;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + options.rowHeight > el.scrollTop + viewHeight) el.scrollTop = top + options.rowHeight - viewHeight;
    onScroll();
  }

  return { columns, rows, totalHeight, start, end, visibleStart, visibleEnd, offsetY, onScroll, scrollToIndex, measure };
}
