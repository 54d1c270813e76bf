// Rows live in a virtual scroller, which renders nothing without layout (happy-dom); row
// rendering is covered in Chromium by the screenshot harness and the end-to-end tests.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import HistoryView from '@/views/HistoryView.vue';
import { SEARCH_DEBOUNCE_MS } from '@/stores/history';
import { mountWithApp, type Mounted } from '../mount-app';
import { makeRecord } from '../fake-data';

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  vi.useRealTimers();
});

describe('HistoryView', () => {
  it('explains an empty history', async () => {
    m = await mountWithApp(HistoryView, { route: '/history' });
    expect(m.wrapper.text()).toContain('No runs yet');
  });

  it('searches what is typed in the search box once typing pauses, and says when nothing matches', async () => {
    m = await mountWithApp(HistoryView, { route: '/history', fake: { history: [makeRecord({ promptPreview: 'Name three rivers' })] } });
    vi.useFakeTimers();
    const box = m.wrapper.find('input[aria-label="Search history"]');
    await box.setValue('riv');
    await box.setValue('volcano');
    const before = m.fake.controls.calls.filter((c) => c.method === 'history.search').length;
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
    await flushPromises();
    const searches = m.fake.controls.calls.filter((c) => c.method === 'history.search').slice(before);
    expect(searches.map((c) => c.input)).toEqual([{ limit: 50, query: 'volcano' }]);
    expect(m.wrapper.text()).toContain('Nothing matches');
  });

  it('offers Export as JSONL only once runs are selected, and says how', async () => {
    m = await mountWithApp(HistoryView, { route: '/history', fake: { history: [makeRecord({ promptPreview: 'Name three rivers' })] } });
    const button = m.wrapper.findAll('button').find((b) => b.text().includes('Export'));
    expect(button?.attributes('disabled')).toBeDefined();
    expect(m.wrapper.find(`#${button?.attributes('aria-describedby')}`).text()).toBe('Select runs with their check boxes to export them');
  });
});
