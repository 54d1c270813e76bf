import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount } from '@vue/test-utils';
import type { ResponseNode } from '@shared/families/responses/contract';
import ChainTree from '@/families/responses/components/ChainTree.vue';

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

function node(id: string, parentId: string | null, createdAt: number, over: Partial<ResponseNode> = {}): ResponseNode {
  return {
    id, kind: 'response', parentId, connectionId: 'sandbox', runId: null, model: 'svc-4', createdAt,
    expiresAt: createdAt + 30 * DAY, serverState: 'stored', status: 'completed', inputPreview: `in ${id}`, outputPreview: `out ${id}`, ...over,
  };
}

afterEach(() => vi.useRealTimers());

describe('ChainTree', () => {
  it('counts the days left from when a node appears, not from when the tree was first shown', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
    const w = mount(ChainTree, { props: { tree: null, selectedId: null } });
    expect(w.text()).toContain('No chain yet');
    vi.setSystemTime(T0 + 3 * DAY);
    const created = T0 + 3 * DAY;
    await w.setProps({ tree: { rootId: 'a', nodes: [node('a', null, created)] } });
    expect(w.find('.node-state').text()).toBe('deleted by the service on 24 Dec 2026 (in 30 days)');
    w.unmount();
  });

  it('marks the selected node and opens a node on click', async () => {
    const tree = { rootId: 'a', nodes: [node('a', null, T0), node('b', 'a', T0 + 1), node('c', 'a', T0 + 2, { serverState: 'deleted' })] };
    const w = mount(ChainTree, { props: { tree, selectedId: 'b', now: T0 } });
    const items = w.findAll('[role="treeitem"]');
    expect(items.map((i) => [i.attributes('data-node-id'), i.attributes('aria-level'), i.attributes('aria-selected')])).toEqual([
      ['a', '1', 'false'],
      ['b', '2', 'true'],
      ['c', '2', 'false'],
    ]);
    expect(items[1]!.attributes('tabindex')).toBe('0');
    expect(items[2]!.find('.node-state').text()).toBe('deleted');
    await items[2]!.trigger('click');
    expect(w.emitted('open')).toEqual([['c']]);
    w.unmount();
  });
});

describe('ChainTree previews', () => {
  it('shows input and output previews as plain text, not raw markdown', () => {
    const tree = { rootId: 'a', nodes: [node('a', null, T0, { inputPreview: 'Explain **bold**', outputPreview: '## Answer\n\n- *first* point' })] };
    const w = mount(ChainTree, { props: { tree, selectedId: null, now: T0 } });
    expect([w.find('.preview-in').text(), w.find('.preview-out').text()]).toEqual(['Explain bold', 'Answer first point']);
    w.unmount();
  });
});
