/**
 * History: the searchable list of recorded runs (paged by cursor, full-text query debounced,
 * model/status filters) and the one entry open at /history/:id. Runs that durable jobs carry
 * (deferred chat) finish in main whatever the page does: `jobs.changed` refreshes the list and
 * the open entry when one of them starts or ends.
 */
import { defineStore } from 'pinia';
import { onScopeDispose, ref, shallowRef } from 'vue';
import type { JobSummary } from '@shared/contract/jobs';
import type { HistorySearchInput } from '@shared/contract/history';
import type { WorkbenchError } from '@shared/contract/errors';
import type { Endpoint, RunRecord, RunStatus, RunSummary } from '@shared/contract/runs';
import { useWorkbench } from '../api';
import { toWorkbenchError } from '../lib/errors';
import { onLinkRegained } from '../composables/use-link-regained';

/** How long typing must pause before the query is searched. */
export const SEARCH_DEBOUNCE_MS = 300;
export const PAGE_SIZE = 50;
/** Job changes come in bursts (state, then progress); one refresh covers a burst. */
export const JOB_REFRESH_MS = 150;

export const useHistoryStore = defineStore('history', () => {
  const items = shallowRef<RunSummary[]>([]);
  const nextCursor = ref<string | null>(null);
  const loading = ref(false);
  const loaded = ref(false);
  const error = ref<WorkbenchError | null>(null);
  const query = ref('');
  const model = ref<string | null>(null);
  const status = ref<RunStatus | null>(null);
  const endpoint = ref<Endpoint | null>(null);
  const models = ref<string[]>([]);
  const current = shallowRef<RunRecord | null>(null);
  const currentLoading = ref(false);
  const currentError = ref<WorkbenchError | null>(null);
  let debounce: ReturnType<typeof setTimeout> | null = null;
  /** The entry last asked for (open), so it can be read again after the link to main is back. */
  let openedId: string | null = null;
  /** Bumped per new search so a slow older page can't overwrite a newer result. */
  let generation = 0;

  function filters(): HistorySearchInput {
    const input: HistorySearchInput = { limit: PAGE_SIZE };
    if (query.value.trim()) input.query = query.value.trim();
    if (model.value) input.model = model.value;
    if (status.value) input.status = status.value;
    if (endpoint.value) input.endpoint = endpoint.value;
    return input;
  }

  let unsubscribeJobs: (() => void) | null = null;
  let jobRefresh: ReturnType<typeof setTimeout> | null = null;
  const jobsToRefresh = new Set<string>();

  /** A job that starts or ends changes a run's status: refresh what shows that run. */
  function onJobChanged(job: JobSummary): void {
    if (!job.runId || job.state === 'running' || job.state === 'retrying') return;
    jobsToRefresh.add(job.runId);
    if (jobRefresh) return;
    jobRefresh = setTimeout(() => {
      jobRefresh = null;
      const runs = [...jobsToRefresh];
      jobsToRefresh.clear();
      if (loaded.value) void fetchPage(null);
      if (current.value && runs.includes(current.value.id)) void refreshCurrent(current.value.id);
    }, JOB_REFRESH_MS);
  }

  /** Listens to `jobs.changed` from the first load on, until the store's scope ends. */
  function watchJobs(): void {
    if (!unsubscribeJobs) unsubscribeJobs = useWorkbench().jobs.onChanged(onJobChanged);
  }

  async function fetchPage(cursor: string | null): Promise<void> {
    watchJobs();
    const gen = cursor ? generation : ++generation;
    loading.value = true;
    try {
      const page = await useWorkbench().history.search({ ...filters(), ...(cursor ? { cursor } : {}) });
      if (gen !== generation) return;
      items.value = cursor ? [...items.value, ...page.items] : page.items;
      nextCursor.value = page.nextCursor;
      error.value = null;
      loaded.value = true;
    } catch (err) {
      if (gen === generation) error.value = toWorkbenchError(err);
    } finally {
      if (gen === generation) loading.value = false;
    }
  }

  /** First page for the current query and filters (replaces the list). */
  function search(): Promise<void> {
    if (debounce) clearTimeout(debounce);
    debounce = null;
    return fetchPage(null);
  }

  /** Next page, appended; does nothing at the end of the list or while a page is loading. */
  async function loadMore(): Promise<void> {
    if (!nextCursor.value || loading.value) return;
    await fetchPage(nextCursor.value);
  }

  /** Sets the query as the user types; the search runs once typing pauses. */
  function setQuery(text: string): void {
    query.value = text;
    if (debounce) clearTimeout(debounce);
    debounce = setTimeout(() => {
      debounce = null;
      void fetchPage(null);
    }, SEARCH_DEBOUNCE_MS);
  }

  function setModel(next: string | null): Promise<void> {
    model.value = next;
    return search();
  }

  function setStatus(next: RunStatus | null): Promise<void> {
    status.value = next;
    return search();
  }

  function setEndpoint(next: Endpoint | null): Promise<void> {
    endpoint.value = next;
    return search();
  }

  async function loadFacets(): Promise<void> {
    try {
      models.value = (await useWorkbench().history.facets()).models;
    } catch {
      // Facets only feed a filter; the list itself reports errors.
      models.value = [];
    }
  }

  /** Loads one whole record for the entry view. */
  async function open(id: string): Promise<void> {
    openedId = id;
    watchJobs();
    currentLoading.value = true;
    currentError.value = null;
    if (current.value?.id !== id) current.value = null;
    try {
      current.value = await useWorkbench().history.get({ id });
    } catch (err) {
      currentError.value = toWorkbenchError(err);
    } finally {
      currentLoading.value = false;
    }
  }

  /** Reloads the open entry in place (no loading state): its job moved it on. */
  async function refreshCurrent(id: string): Promise<void> {
    try {
      const fresh = await useWorkbench().history.get({ id });
      if (current.value?.id === id) current.value = fresh;
    } catch {
      // Deleted meanwhile: the list refresh shows it gone; the entry keeps what it had.
    }
  }

  /** Deletes a run (rejects with WorkbenchFailure); it leaves the list at once. */
  async function remove(id: string): Promise<void> {
    await useWorkbench().history.remove({ id });
    items.value = items.value.filter((r) => r.id !== id);
    if (current.value?.id === id) current.value = null;
  }

  function dispose(): void {
    if (debounce) clearTimeout(debounce);
    debounce = null;
    if (jobRefresh) clearTimeout(jobRefresh);
    jobRefresh = null;
    unsubscribeJobs?.();
    unsubscribeJobs = null;
  }

  onScopeDispose(dispose);
  // Cut off from main, the list and the open entry missed what changed meanwhile: read them again.
  onLinkRegained(() => {
    if (loaded.value || error.value) void fetchPage(null);
    if (openedId) void (current.value?.id === openedId && !currentError.value ? refreshCurrent(openedId) : open(openedId));
  });

  return {
    items, nextCursor, loading, loaded, error, query, model, status, endpoint, models, current, currentLoading, currentError,
    search, loadMore, setQuery, setModel, setStatus, setEndpoint, loadFacets, open, remove, dispose,
  };
});
