/**
 * A busy call logs messages every frame: a new version of the log re-renders the panel's few lines
 * and its list only, not the filters and the export button with their PrimeVue children, and in the
 * list only the rows that changed are patched (a fold's count, a new row).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import type { ComponentInternalInstance, VNode } from 'vue';
import EventLogPanel from '@/families/realtime/components/EventLogPanel.vue';
import { EventLog } from '@/families/realtime/lib/event-log';
import { mountWithApp, type Mounted } from '../../mount-app';

// Each drawn row's label counted: a row patched again (not memoised) asks for its label again.
const labels = vi.hoisted(() => ({ calls: 0 }));
vi.mock('@/families/realtime/lib/event-log', async (importOriginal) => {
  const original = await importOriginal<typeof import('@/families/realtime/lib/event-log')>();
  return {
    ...original,
    rowLabel: (...a: Parameters<typeof original.rowLabel>) => {
      labels.calls++;
      return original.rowLabel(...a);
    },
  };
});

let m: Mounted;
afterEach(() => m?.wrapper.unmount());

/** Every component instance in a subtree. */
function instances(root: ComponentInternalInstance): ComponentInternalInstance[] {
  const out: ComponentInternalInstance[] = [];
  const walk = (v: VNode | null | undefined): void => {
    if (!v) return;
    if (v.component) {
      out.push(v.component);
      walk(v.component.subTree);
      return;
    }
    if (Array.isArray(v.children)) for (const c of v.children) walk(c as VNode);
  };
  out.push(root);
  walk(root.subTree);
  return out;
}

/** Counts the renders of each component (by name) from now on. */
function countRenders(root: ComponentInternalInstance): Map<string, number> {
  const counts = new Map<string, number>();
  for (const i of instances(root)) {
    const name = i.type.name ?? (i.type as { __name?: string }).__name ?? '?';
    const r = i as unknown as { render: (...a: unknown[]) => unknown };
    const render = r.render;
    r.render = function (this: unknown, ...a: unknown[]) {
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return render.apply(this, a);
    };
  }
  return counts;
}

describe('the event log on a busy call', () => {
  it('re-renders only the panel and its list on a new version, and patches only the rows that changed', async () => {
    const log = new EventLog({ maxRows: 100 });
    for (let t = 0; t < 10; t++) log.push({ t, direction: 'in', message: { type: `event.${t}` } });
    m = await mountWithApp(EventLogPanel, { props: { log, version: 1, runId: 'run_1', exportJsonl: async () => new Blob([]) } });
    await flushPromises();
    const root = m.wrapper.findComponent(EventLogPanel).vm.$;
    const names = instances(root).map((i) => i.type.name ?? (i.type as { __name?: string }).__name);
    // The filters and the export button, with their PrimeVue children, are there to be counted.
    expect(names).toEqual(expect.arrayContaining(['EventLogToolbar', 'EventLogExport', 'EventTypeFilter', 'Button', 'InputText', 'SelectButton', 'EventLogList']));
    const renders = countRenders(root);
    labels.calls = 0;

    const rows = document.querySelector('.log-rows')!;
    const changed = new Set<Element>();
    const added: Element[] = [];
    const observer = new MutationObserver((records) => {
      for (const r of records) {
        if (r.target === rows && r.type === 'childList') added.push(...([...r.addedNodes] as Element[]));
        else {
          const row = (r.target instanceof Element ? r.target : r.target.parentElement)?.closest('[data-test="log-row"]');
          if (row) changed.add(row);
        }
      }
    });
    observer.observe(rows, { subtree: true, childList: true, attributes: true, characterData: true });

    // Five frames: deltas folding into one new row.
    for (let v = 2; v < 7; v++) {
      log.push({ t: 10 + v, direction: 'in', message: { type: 'response.output_audio.delta', delta: 'AAAA' } });
      await m.wrapper.setProps({ version: v });
      await flushPromises();
    }
    await flushPromises();
    observer.disconnect();
    const types = [...document.querySelectorAll('[data-test="log-type"]')].map((e) => e.textContent);
    expect(types.slice(-2)).toEqual(['event.9', 'response.output_audio.delta ×5']);
    expect(document.querySelector('[data-test="log-count"]')?.textContent).toContain('15 messages · 11 rows shown');

    // The fold's row, once a frame: the 10 rows before it are not patched again.
    expect(labels.calls).toBe(5);
    // (LiveLine: the count's line, its text new each frame.)
    expect(Object.fromEntries(renders)).toEqual({ EventLogPanel: 5, EventLogList: 5, LiveLine: 5 });
    // One row added (the fold, now of 5); of the rows drawn, only the fold's row changed since (its count).
    expect(added.map((e) => e.querySelector('[data-test="log-type"]')?.textContent)).toEqual(['response.output_audio.delta ×5']);
    expect([...changed].map((e) => e.querySelector('[data-test="log-type"]')?.textContent)).toEqual(['response.output_audio.delta ×5']);
  }, 30_000);
});
