import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import CompareView from '@/views/CompareView.vue';
import { useCompareStore } from '@/stores/compare';
import type { ChatRequest } from '@shared/wire/chat';
import { button, mountWithApp, type Mounted } from '../mount-app';
import { makeUsage } from '../fake-data';

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  document.body.innerHTML = '';
});

async function mountCompare(): Promise<Mounted> {
  m = await mountWithApp(CompareView, { route: '/compare', fake: { chatMode: 'manual' } });
  return m;
}

function column(n: number): HTMLElement {
  const found = document.querySelector<HTMLElement>(`[data-column="${n}"]`);
  if (!found) throw new Error(`no column ${n}`);
  return found;
}

async function ask(text: string): Promise<void> {
  await m.wrapper.find('#compare-user').setValue(text);
  await flushPromises();
}

const sentRequest = (i: number): ChatRequest => m.fake.controls.streams[i]!.input.request as unknown as ChatRequest;

describe('CompareView', () => {
  it('streams every column at once, each with its own model, and shows each one\'s cost and History link', async () => {
    await mountCompare();
    await ask('Name a river');
    button(m.wrapper, 'Run all').click();
    await flushPromises();
    // Both started before either finished: the runs are concurrent.
    expect(m.fake.controls.streams.map((s) => s.method)).toEqual(['chat.send', 'chat.send']);
    expect([sentRequest(0).model, sentRequest(1).model]).toEqual(['svc-4', 'svc-3-mini']);
    expect(sentRequest(0).messages).toEqual([{ role: 'user', content: 'Name a river' }]);
    expect(sentRequest(0)).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    // One comparison: both runs carry the same group, so History lists them together.
    const groups = m.fake.controls.streams.map((s) => (s.input as { group?: { kind: string; id: string } }).group);
    expect(groups[0]).toEqual({ kind: 'compare', id: expect.stringMatching(/^cmp-[a-z0-9]+-[0-9a-f]{12}$/) });
    expect(groups[1]).toEqual(groups[0]);
    expect(button(m.wrapper, 'Stop all')).toBeTruthy();

    const [a, b] = m.fake.controls.streams;
    a!.emit({ type: 'response', status: 200, ttfbMs: 150, requestId: 'req-a' });
    a!.emit({ type: 'delta', choice: 0, content: 'The Danube' });
    b!.emit({ type: 'delta', choice: 0, content: 'The Mekong' });
    await new Promise((r) => setTimeout(r, 40));
    await flushPromises();
    expect(column(1).textContent).toContain('The Danube');
    expect(column(2).textContent).toContain('The Mekong');
    expect(column(1).querySelector('[data-streaming="true"]')).not.toBeNull();

    a!.finish({ id: 'run-a', usage: makeUsage({ prompt_tokens: 11, completion_tokens: 3 }), costTicks: 30_000_000, timings: { startedAt: 1, ttfbMs: 150, totalMs: 910 } });
    b!.finish({ id: 'run-b', usage: makeUsage(), costTicks: 7_920_000 });
    await flushPromises();
    expect(column(1).textContent).toContain('completed');
    expect(column(1).textContent).toContain('$0.003');
    expect(column(1).textContent).toMatch(/In\s*11/);
    expect(column(1).textContent).toMatch(/Out\s*3/);
    expect(column(1).textContent).toMatch(/First byte\s*150 ms/);
    expect(column(1).textContent).toContain('910 ms');
    // The same figures in the same order in every column: they line up in one row.
    const labels = (n: number) => [...column(n).querySelectorAll('.column-metrics dt')].map((d) => d.textContent);
    expect(labels(1)).toEqual(['First byte', 'Tokens/s', 'Total time', 'In', 'Out', 'Reasoning', 'Cost']);
    expect(labels(2)).toEqual(labels(1));
    expect(column(2).textContent).toContain('$0.000792');
    expect(column(1).querySelector('a')?.getAttribute('href')).toContain('/history/run-a');
    expect(column(2).querySelector('a')?.getAttribute('href')).toContain('/history/run-b');
    expect(button(m.wrapper, 'Run all')).toBeTruthy();
  });

  it('stops every column with Stop all, each keeping its partial text', async () => {
    await mountCompare();
    await ask('Count slowly');
    button(m.wrapper, 'Run all').click();
    await flushPromises();
    m.fake.controls.streams[0]!.emit({ type: 'delta', choice: 0, content: 'one, two' });
    await new Promise((r) => setTimeout(r, 40));
    button(m.wrapper, 'Stop all').click();
    await flushPromises();
    expect(m.fake.controls.streams.every((s) => s.cancelled)).toBe(true);
    expect(column(1).textContent).toContain('one, two');
    expect(column(1).textContent).toContain('cancelled');
    expect(column(2).textContent).toContain('cancelled');
  });

  it('sends a column\'s overrides over the shared parameters', async () => {
    await mountCompare();
    const store = useCompareStore();
    store.system = 'Be terse.';
    store.shared.maxTokens = 200;
    store.shared.temperature = 1;
    store.columns[1]!.temperature = 0.2;
    store.columns[1]!.reasoningEffort = 'high';
    await ask('Hi');
    button(m.wrapper, 'Run all').click();
    await flushPromises();
    expect(sentRequest(0)).toMatchObject({ temperature: 1, max_completion_tokens: 200, messages: [{ role: 'system', content: 'Be terse.' }, { role: 'user', content: 'Hi' }] });
    expect(sentRequest(0).reasoning_effort).toBeUndefined();
    expect(sentRequest(1)).toMatchObject({ temperature: 0.2, max_completion_tokens: 200, reasoning_effort: 'high' });
  });

  it('adds columns up to four and removes them down to two', async () => {
    await mountCompare();
    expect(document.querySelectorAll('[data-column]')).toHaveLength(2);
    expect(() => button(m.wrapper, 'Remove column 1')).toThrow();
    button(m.wrapper, 'Add column').click();
    await flushPromises();
    button(m.wrapper, 'Add column').click();
    await flushPromises();
    expect(document.querySelectorAll('[data-column]')).toHaveLength(4);
    expect(button(m.wrapper, 'Add column').disabled).toBe(true);
    button(m.wrapper, 'Remove column 2').click();
    await flushPromises();
    expect(document.querySelectorAll('[data-column]')).toHaveLength(3);
    await ask('Hi');
    button(m.wrapper, 'Run all').click();
    await flushPromises();
    expect(m.fake.controls.streams).toHaveLength(3);
  });

  it('says why it cannot run without a user message', async () => {
    await mountCompare();
    expect(button(m.wrapper, 'Run all').disabled).toBe(true);
    expect(document.body.textContent).toContain("Can't run: write a user message");
    await ask('Hello');
    expect(button(m.wrapper, 'Run all').disabled).toBe(false);
  });

  it('names the column whose settings the service would refuse, and does not run', async () => {
    await mountCompare();
    useCompareStore().columns[0]!.reasoningEffort = 'high';
    await ask('Hi');
    expect(document.body.textContent).toContain("Can't run: column 1: reasoning_effort");
    expect(column(1).textContent).toContain('only supported by reasoning models');
    expect(button(m.wrapper, 'Run all').disabled).toBe(true);
  });
});
