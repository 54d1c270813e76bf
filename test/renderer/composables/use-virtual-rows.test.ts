import { describe, expect, it } from 'vitest';
import { effectScope, nextTick, ref } from 'vue';
import { useVirtualRows } from '@/composables/use-virtual-rows';

/** A 300 px high scroller whose content is `count` rows of 20 px (a test DOM lays nothing out). */
function rows(initial: number, follow = false) {
  const count = ref(initial);
  const el = document.createElement('div');
  Object.defineProperty(el, 'clientWidth', { value: 800 });
  Object.defineProperty(el, 'clientHeight', { value: 300 });
  Object.defineProperty(el, 'scrollHeight', { get: () => count.value * 20 });
  // As a browser does: scrollTop stays within the content, also when the content shrinks.
  let top = 0;
  const clamp = (v: number) => Math.max(0, Math.min(v, count.value * 20 - 300));
  /** Reads of scrollTop (in a browser, each after an update forces a layout). */
  const reads = { scrollTop: 0 };
  Object.defineProperty(el, 'scrollTop', { get: () => (reads.scrollTop++, (top = clamp(top))), set: (v: number) => (top = clamp(v)) });
  const container = ref<HTMLElement | null>(el);
  const scope = effectScope();
  const list = scope.run(() => useVirtualRows({ container, count: () => count.value, rowHeight: 20, overscan: 2, follow }))!;
  return { el, count, list, reads };
}

/** The update, then the next frame drawn (following scrolls after it, off the updating task and the frame's callbacks). */
async function updateAndFrame(): Promise<void> {
  await nextTick();
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  await new Promise((resolve) => setTimeout(resolve, 0));
}

describe('useVirtualRows', () => {
  it('draws the rows in view plus the overscan, one column, and sizes the list from the count', async () => {
    const { el, list } = rows(50_000);
    await nextTick();
    expect(list.totalHeight.value).toBe(1_000_000);
    expect(list.indexes.value).toEqual(Array.from({ length: 17 }, (_, i) => i));
    el.scrollTop = 500_000;
    list.onScroll();
    expect(list.indexes.value[0]).toBe(24_998);
    expect(list.indexes.value.at(-1)).toBe(25_016);
    expect(list.offsetY.value).toBe(24_998 * 20);
  });

  it('follows new rows while at the end; scrolling up stops it, back at the end resumes', async () => {
    const { el, count, list } = rows(100, true);
    await nextTick();
    count.value = 200;
    await updateAndFrame();
    expect(el.scrollTop).toBe(200 * 20 - 300);
    expect(list.indexes.value.at(-1)).toBe(199);

    el.scrollTop = 1000;
    list.onScroll();
    expect(list.following.value).toBe(false);
    count.value = 300;
    await updateAndFrame();
    expect(el.scrollTop).toBe(1000);

    el.scrollTop = 300 * 20 - 300;
    list.onScroll();
    expect(list.following.value).toBe(true);
    count.value = 400;
    await updateAndFrame();
    expect(el.scrollTop).toBe(400 * 20 - 300);
  });

  it('keeps following when rows come faster than the scroll events (a busy log): its own scroll, seen late, is not the user leaving', async () => {
    const { el, count, list } = rows(100, true);
    await nextTick();
    count.value = 200;
    await updateAndFrame();
    expect(el.scrollTop).toBe(200 * 20 - 300);
    // Ten rows more before the scroll event of following's scroll is dispatched.
    count.value = 210;
    await nextTick();
    list.onScroll();
    expect(list.following.value).toBe(true);
    await updateAndFrame();
    expect(el.scrollTop).toBe(210 * 20 - 300);
    expect(list.indexes.value.at(-1)).toBe(209);
  });

  it('rows added while not following are drawn without reading the scroll position', async () => {
    const { el, count, list, reads } = rows(1000, true);
    await updateAndFrame();
    el.scrollTop = 2000;
    list.onScroll();
    expect(list.following.value).toBe(false);
    reads.scrollTop = 0;
    for (let k = 1; k <= 5; k++) {
      count.value = 1000 + k * 50;
      await updateAndFrame();
    }
    expect(reads.scrollTop).toBe(0);
    expect(el.scrollTop).toBe(2000);
    expect(list.indexes.value[0]).toBe(98);
    expect(list.totalHeight.value).toBe(1250 * 20);
  });

  it('a list that shrinks (a filter) draws the rows at the clamped scroll position', async () => {
    const { el, count, list } = rows(1000);
    await nextTick();
    el.scrollTop = 15_000;
    list.onScroll();
    expect(list.indexes.value[0]).toBe(748);
    count.value = 10;
    await nextTick();
    expect(el.scrollTop).toBe(0);
    expect(list.indexes.value).toEqual(Array.from({ length: 10 }, (_, i) => i));
  });

  it('a following list that shrinks draws its rows at once, not a frame later (a filter typed at the end of a live log)', async () => {
    const { count, list } = rows(1000, true);
    await updateAndFrame();
    count.value = 2000;
    await updateAndFrame();
    expect(list.indexes.value.at(-1)).toBe(1999);
    count.value = 5;
    await nextTick();
    expect(list.indexes.value).toEqual([0, 1, 2, 3, 4]);
  });

  it('keyboard moves: by one, by a screenful, to either end, clamped; other keys are not moves', async () => {
    const { count, list } = rows(100);
    await nextTick();
    expect(list.rowsInView()).toBe(15);
    expect(list.keyTarget('ArrowDown', -1)).toBe(0);
    expect(list.keyTarget('ArrowDown', 5)).toBe(6);
    expect(list.keyTarget('ArrowUp', 0)).toBe(0);
    expect(list.keyTarget('PageDown', 10)).toBe(25);
    expect(list.keyTarget('PageDown', 95)).toBe(99);
    expect(list.keyTarget('PageUp', 10)).toBe(0);
    expect(list.keyTarget('End', 3)).toBe(99);
    expect(list.keyTarget('Home', 50)).toBe(0);
    expect(list.keyTarget('Enter', 3)).toBeNull();
    count.value = 0;
    expect(list.keyTarget('ArrowDown', -1)).toBeNull();
  });
});
