import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { provideWorkbench } from '@/api';
import { JOB_REFRESH_MS, PAGE_SIZE, SEARCH_DEBOUNCE_MS, useHistoryStore } from '@/stores/history';
import type { JobSummary } from '@shared/contract/jobs';
import { createFakeWorkbench, type FakeWorkbench } from '../fake-workbench';
import { makeRecord } from '../fake-data';

let fake: FakeWorkbench;

beforeEach(() => {
  setActivePinia(createPinia());
  const history = Array.from({ length: PAGE_SIZE + 10 }, (_, i) =>
    makeRecord({ promptPreview: i === 3 ? 'Tell me about otters' : `prompt ${i}`, model: i % 2 ? 'svc-4' : 'svc-3-mini', status: i === 5 ? 'error' : 'completed' }),
  );
  fake = createFakeWorkbench({ history });
  provideWorkbench(fake);
});

afterEach(() => vi.useRealTimers());

const searches = (): unknown[] => fake.controls.calls.filter((c) => c.method === 'history.search').map((c) => c.input);

describe('history store', () => {
  describe('search() and loadMore()', () => {
    it('loads the first page, then appends the next page by cursor until the end', async () => {
      const h = useHistoryStore();
      await h.search();
      expect(h.items).toHaveLength(PAGE_SIZE);
      expect(h.nextCursor).not.toBeNull();
      await h.loadMore();
      expect(h.items).toHaveLength(PAGE_SIZE + 10);
      expect(h.nextCursor).toBeNull();
      expect(new Set(h.items.map((r) => r.id)).size).toBe(PAGE_SIZE + 10);
      await h.loadMore();
      expect(searches()).toHaveLength(2);
    });

    it('filters by model and status', async () => {
      const h = useHistoryStore();
      await h.setStatus('error');
      expect(h.items.map((r) => r.status)).toEqual(['error']);
      await h.setStatus(null);
      await h.setModel('svc-4');
      expect(h.items.every((r) => r.model === 'svc-4')).toBe(true);
      expect(searches().at(-1)).toEqual({ limit: PAGE_SIZE, model: 'svc-4' });
    });
  });

  describe('setQuery()', () => {
    it('searches once, after typing pauses, with the last text typed', async () => {
      vi.useFakeTimers();
      const h = useHistoryStore();
      h.setQuery('o');
      h.setQuery('ott');
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1);
      h.setQuery('otters');
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1);
      expect(searches()).toHaveLength(0);
      vi.advanceTimersByTime(1);
      await vi.runAllTimersAsync();
      expect(searches()).toEqual([{ limit: PAGE_SIZE, query: 'otters' }]);
      expect(h.items.map((r) => r.promptPreview)).toEqual(['Tell me about otters']);
    });

    it('drops a stale page that arrives after a newer search', async () => {
      const search = fake.history.search;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let calls = 0;
      fake.history.search = async (input) => {
        if (calls++ === 0) await gate;
        return search(input);
      };
      const h = useHistoryStore();
      const slow = h.search();
      h.query = 'otters';
      await h.search();
      release();
      await slow;
      expect(h.loading).toBe(false);
      expect(h.items.map((r) => r.promptPreview)).toEqual(['Tell me about otters']);
    });
  });

  describe('open() and remove()', () => {
    it('opens a whole record and removes it from the list on delete', async () => {
      const h = useHistoryStore();
      await h.search();
      const id = h.items[0]!.id;
      await h.open(id);
      expect(h.current?.request.method).toBe('POST');
      await h.remove(id);
      expect(h.items.some((r) => r.id === id)).toBe(false);
      expect(h.current).toBeNull();
    });

    it('reports a missing run as not_found', async () => {
      const h = useHistoryStore();
      await h.open('nope');
      expect(h.currentError?.code).toBe('not_found');
    });
  });

  describe('jobs.changed', () => {
    const job = (state: JobSummary['state'], runId: string | null): JobSummary => ({
      id: 'job_1', kind: 'deferred-chat', state, attempt: 1, createdAt: 1, updatedAt: 2, runId, progress: null, error: null, wait: null,
    });

    it('refreshes the list once per burst when a job ends, and the open entry it carries in place', async () => {
      const h = useHistoryStore();
      await h.search();
      const target = fake.controls.history[0]!;
      fake.controls.history[0] = { ...target, status: 'pending' };
      await h.open(target.id);
      expect(h.current?.status).toBe('pending');
      const before = searches().length;
      vi.useFakeTimers();
      // Progress of a running job changes no run: nothing is fetched.
      fake.controls.emitJobChanged(job('running', target.id));
      await vi.advanceTimersByTimeAsync(JOB_REFRESH_MS * 2);
      expect(searches()).toHaveLength(before);

      fake.controls.history[0] = { ...target, status: 'completed' };
      fake.controls.emitJobChanged(job('completed', target.id));
      fake.controls.emitJobChanged(job('completed', target.id));
      await vi.advanceTimersByTimeAsync(JOB_REFRESH_MS);
      expect(searches()).toHaveLength(before + 1);
      expect(h.current?.status).toBe('completed');
      expect(h.currentLoading).toBe(false);
    });

    it('stops listening when the store is disposed', async () => {
      const h = useHistoryStore();
      await h.search();
      expect(fake.controls.jobListeners()).toBe(1);
      await h.search();
      expect(fake.controls.jobListeners()).toBe(1);
      h.$dispose();
      expect(fake.controls.jobListeners()).toBe(0);
    });
  });
});
