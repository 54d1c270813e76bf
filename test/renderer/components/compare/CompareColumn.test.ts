import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import CompareColumn from '@/components/compare/CompareColumn.vue';
import { useCompareStore } from '@/stores/compare';
import { mountWithApp, type Mounted } from '../../mount-app';

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  document.body.innerHTML = '';
});

/** The first column of a fresh Compare state, mounted alone, its run started. */
async function startedColumn(): Promise<void> {
  m = await mountWithApp(CompareColumn, { route: '/compare', fake: { chatMode: 'manual' }, props: { columnId: 'col-1', index: 0, removable: false } });
  const store = useCompareStore();
  store.user = 'Explain rainbows';
  store.columns[0]!.model = 'svc-3-mini';
  store.columns[1]!.model = 'svc-4';
  void store.runAll();
  await flushPromises();
}

const frame = () => new Promise((r) => setTimeout(r, 40));

describe('CompareColumn', () => {
  it('shows a failed run\'s error under the partial text it had, with no History link', async () => {
    await startedColumn();
    const stream = m.fake.controls.streams[0]!;
    stream.emit({ type: 'delta', choice: 0, content: 'Light bends as it' });
    await frame();
    stream.fail({ code: 'stream_incomplete', message: 'the stream ended before [DONE]', requestId: 'req-9' });
    await flushPromises();
    const text = m.wrapper.text();
    expect(text).toContain('Light bends as it');
    expect(text).toContain('the stream ended before [DONE]');
    expect(text).toContain('error');
    expect(text.indexOf('Light bends as it')).toBeLessThan(text.indexOf('the stream ended before [DONE]'));
    expect(m.wrapper.find('a').exists()).toBe(false);
  });

  it('keeps reasoning apart from the answer, folded', async () => {
    await startedColumn();
    const stream = m.fake.controls.streams[0]!;
    stream.emit({ type: 'delta', choice: 0, reasoning: 'Think about refraction.' });
    stream.emit({ type: 'delta', choice: 0, content: 'Refraction splits light.' });
    await frame();
    await flushPromises();
    const details = m.wrapper.find('details');
    expect(details.exists()).toBe(true);
    expect(details.text()).toContain('Think about refraction.');
    expect(m.wrapper.find('.markdown-stub').text()).toBe('Refraction splits light.');
    expect(m.wrapper.find('.markdown-stub').attributes('data-streaming')).toBe('true');
  });
});
