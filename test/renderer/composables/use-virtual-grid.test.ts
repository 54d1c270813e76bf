import { describe, expect, it } from 'vitest';
import { effectScope, nextTick, ref } from 'vue';
import { useVirtualGrid } from '@/composables/use-virtual-grid';

function grid(count: number, size = { width: 1000, height: 600 }) {
  const el = document.createElement('div');
  Object.defineProperty(el, 'clientWidth', { value: size.width });
  Object.defineProperty(el, 'clientHeight', { value: size.height });
  const container = ref<HTMLElement | null>(el);
  const scope = effectScope();
  const g = scope.run(() => useVirtualGrid({ container, count: () => count, tileWidth: 200, rowHeight: 100, overscan: 1 }))!;
  return { el, g, scope };
}

describe('useVirtualGrid', () => {
  it('renders the rows in view plus the overscan, and sizes the whole list from the count', async () => {
    const { g } = grid(2000);
    await nextTick();
    expect(g.columns.value).toBe(5);
    expect(g.totalHeight.value).toBe(400 * 100);
    expect([g.start.value, g.end.value]).toEqual([0, 35]);
    expect([g.visibleStart.value, g.visibleEnd.value]).toEqual([0, 30]);
  });

  it('follows the scroll position, and never passes the last item', async () => {
    const { el, g } = grid(2000);
    await nextTick();
    el.scrollTop = 10_000;
    g.onScroll();
    expect(g.offsetY.value).toBe(9_900);
    expect([g.start.value, g.end.value]).toEqual([495, 535]);
    el.scrollTop = 39_400;
    g.onScroll();
    expect(g.end.value).toBe(2000);
  });

  it('scrolls the least needed to show a tile', async () => {
    const { el, g } = grid(2000);
    await nextTick();
    g.scrollToIndex(52);
    expect(el.scrollTop).toBe(1100 - 600);
    g.scrollToIndex(0);
    expect(el.scrollTop).toBe(0);
  });
});
