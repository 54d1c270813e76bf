/**
 * The Files view's list: one page of the service's files (sort, page size, pages by token), the
 * AIP-160 filter (checked here first, so a filter that does not parse is shown with its column
 * and never sent), and the actions on one file (download with progress, delete, rename and
 * expiry, public URL). Records other windows change arrive through `files.changed`. When the
 * service cannot be reached, the offline record of every file uploaded or seen stands in.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import { groupsFromFilter, parseFilter, printFilter, type FilterBuilderState, type FilterError } from '@shared/aip160';
import type { WorkbenchError } from '@shared/contract/errors';
import type { FileDownloadResult, FileRecord } from '@shared/families/files/contract';
import { useWorkbench } from '../../../api';
import { useConnectionsStore } from '../../../stores/connections';
import { toWorkbenchError } from '../../../lib/errors';
import { onLinkRegained } from '../../../composables/use-link-regained';

export type FileSortField = 'created_at' | 'filename' | 'size';

export interface DownloadProgress {
  received: number;
  total: number | null;
  bytesPerSecond: number;
}

export const useFilesStore = defineStore('files', () => {
  const items = shallowRef<FileRecord[]>([]);
  const sortBy = ref<FileSortField>('created_at');
  const order = ref<'asc' | 'desc'>('desc');
  const limit = ref(20);
  /** Tokens of the pages before the current one (the first page has none). */
  const pageTokens = shallowRef<(string | undefined)[]>([]);
  const currentToken = ref<string | undefined>(undefined);
  const nextToken = ref<string | null>(null);
  /** The filter that is applied (sent with every page). */
  const filter = ref('');
  const filterError = ref<FilterError | null>(null);
  /** The raw box's text: what is typed, applied or not (kept here so it outlives the view's panels). */
  const filterText = ref('');
  /**
   * The builder's rows. Kept in the store, not the builder, so switching to the local record and
   * back keeps them; a filter applied from the raw box is shown here as rows when it can be.
   */
  const builder = ref<FilterBuilderState>(emptyBuilder());
  /** False when the applied filter is shaped beyond groups of rows: the builder then says so. */
  const builderFits = ref(true);
  /**
   * The applied filter as the parser reads it, with every OR inside an AND in parentheses
   * (AIP-160 binds OR tighter: `a AND b OR c` is `a AND (b OR c)`); '' when there is none.
   */
  const filterReading = computed(() => readFilter(filter.value));
  const loading = ref(false);
  const loaded = ref(false);
  const error = ref<WorkbenchError | null>(null);
  /** True when the list shows the offline record because the service could not be reached. */
  const offline = ref(false);
  /** What the list shows: the service's files, or the local record of every file uploaded or seen. */
  const source = ref<'service' | 'local'>('service');
  const localQuery = ref('');
  const downloads = shallowRef<Record<string, DownloadProgress>>({});
  let generation = 0;
  let unsubscribe: (() => void) | null = null;
  let refreshTimer: ReturnType<typeof setTimeout> | null = null;

  // Cut off from main, the list missed what changed meanwhile: read the page shown again.
  onLinkRegained(() => loaded.value && void (source.value === 'local' ? fetchLocal() : fetchPage(currentToken.value)));

  /** Several uploads finishing together refresh the list once. */
  function scheduleRefresh(): void {
    if (refreshTimer) return;
    refreshTimer = setTimeout(() => {
      refreshTimer = null;
      void fetchPage(currentToken.value);
    }, 250);
  }

  async function fetchPage(token: string | undefined): Promise<void> {
    const gen = ++generation;
    loading.value = true;
    try {
      const page = await useWorkbench().files.list({
        sortBy: sortBy.value,
        order: order.value,
        limit: limit.value,
        ...(token ? { paginationToken: token } : {}),
        ...(filter.value.trim() ? { filter: filter.value.trim() } : {}),
      });
      if (gen !== generation) return;
      items.value = page.items;
      currentToken.value = token;
      nextToken.value = page.nextToken;
      error.value = null;
      offline.value = false;
    } catch (err) {
      if (gen !== generation) return;
      error.value = toWorkbenchError(err);
      if (error.value.code === 'network' || error.value.code === 'timeout') await showOffline();
    } finally {
      if (gen === generation) {
        loading.value = false;
        loaded.value = true;
      }
    }
  }

  /**
   * The offline record stands in for the service's list (the service is away): the files of the
   * connection that list was for, not every connection's (the local record holds them all).
   */
  async function showOffline(): Promise<void> {
    const connectionId = useConnectionsStore().activeId;
    items.value = await useWorkbench().files.local({ limit: 200, ...(connectionId ? { connectionId } : {}) });
    nextToken.value = null;
    offline.value = true;
  }

  /** The local record, searched by name or id (offline; every file uploaded or seen). */
  async function fetchLocal(): Promise<void> {
    const gen = ++generation;
    loading.value = true;
    try {
      const q = localQuery.value.trim();
      const found = await useWorkbench().files.local({ limit: 200, ...(q ? { query: q } : {}) });
      if (gen !== generation) return;
      items.value = found;
      nextToken.value = null;
      error.value = null;
    } catch (err) {
      if (gen === generation) error.value = toWorkbenchError(err);
    } finally {
      if (gen === generation) {
        loading.value = false;
        loaded.value = true;
      }
    }
  }

  function setSource(next: 'service' | 'local'): Promise<void> {
    source.value = next;
    return refresh();
  }

  function setLocalQuery(text: string): Promise<void> {
    localQuery.value = text;
    return source.value === 'local' ? fetchLocal() : Promise.resolve();
  }

  /** The first page for the current sort and filter (or the local record, when that is shown). */
  function refresh(): Promise<void> {
    pageTokens.value = [];
    if (source.value === 'local') return fetchLocal();
    return fetchPage(undefined);
  }

  async function nextPage(): Promise<void> {
    if (!nextToken.value || loading.value) return;
    pageTokens.value = [...pageTokens.value, currentToken.value];
    await fetchPage(nextToken.value);
  }

  async function previousPage(): Promise<void> {
    if (pageTokens.value.length === 0 || loading.value) return;
    const tokens = [...pageTokens.value];
    const previous = tokens.pop();
    pageTokens.value = tokens;
    await fetchPage(previous);
  }

  function setSort(field: FileSortField, direction: 'asc' | 'desc'): Promise<void> {
    sortBy.value = field;
    order.value = direction;
    return refresh();
  }

  function setLimit(n: number): Promise<void> {
    limit.value = n;
    return refresh();
  }

  /**
   * Checks a filter and, when it parses, applies it (first page). Returns the error, with the
   * column to point at, when it does not; nothing is sent then.
   */
  async function applyFilter(text: string): Promise<FilterError | null> {
    filterText.value = text;
    const parsed = parseFilter(text);
    if (!parsed.ok) {
      filterError.value = parsed.error;
      return parsed.error;
    }
    filterError.value = null;
    filter.value = text.trim();
    // The builder shows the filter that is applied, whichever side it came from.
    const groups = groupsFromFilter(parsed.expr);
    builderFits.value = groups !== null;
    if (groups) builder.value = groups.groups.length ? groups : emptyBuilder();
    await refresh();
    return null;
  }

  /** Back to every file: no filter applied, an empty box and builder. */
  function clearFilter(): Promise<FilterError | null> {
    builder.value = emptyBuilder();
    return applyFilter('');
  }

  /**
   * Puts a record the service (or another window) changed into the list, where it is shown. The
   * service's list only has files it still holds: one deleted or expired leaves it (the local
   * record keeps it, marked).
   */
  function merge(record: FileRecord): void {
    const i = items.value.findIndex((f) => f.key === record.key);
    if (i >= 0 && source.value === 'service' && !offline.value && (record.status === 'deleted' || record.status === 'expired')) {
      items.value = items.value.filter((f) => f.key !== record.key);
      return;
    }
    if (i < 0) {
      // A new upload finished (here or in another window): the page it belongs on is the service's call.
      if (record.status === 'complete' && loaded.value && !offline.value && source.value === 'service') scheduleRefresh();
      return;
    }
    const next = [...items.value];
    next[i] = record;
    items.value = next;
  }

  /** Listens for changes made elsewhere; idempotent. */
  function listen(): void {
    unsubscribe ??= useWorkbench().files.onChanged(merge);
  }

  /**
   * A file's reference for an action: with the connection it was recorded under, so a row of the
   * local record (every connection's files) is acted on where it lives, not on the active one.
   */
  function refTo(id: string, connectionId?: string): { id: string; connectionId?: string } {
    return connectionId ? { id, connectionId } : { id };
  }

  async function remove(id: string, connectionId?: string): Promise<FileRecord> {
    const record = await useWorkbench().files.remove(refTo(id, connectionId));
    merge(record);
    return record;
  }

  async function update(id: string, change: { filename?: string; expiresAfter?: number | null }, connectionId?: string): Promise<FileRecord> {
    const record = await useWorkbench().files.update({ ...refTo(id, connectionId), ...change });
    merge(record);
    return record;
  }

  /** A public URL, valid until revoked or for `expiresAfter` seconds. */
  async function createPublicUrl(id: string, connectionId?: string, expiresAfter?: number): Promise<FileRecord> {
    const record = await useWorkbench().files.createPublicUrl({ ...refTo(id, connectionId), ...(expiresAfter !== undefined ? { expiresAfter } : {}) });
    merge(record);
    return record;
  }

  async function revokePublicUrl(id: string, connectionId?: string): Promise<FileRecord> {
    const record = await useWorkbench().files.revokePublicUrl(refTo(id, connectionId));
    merge(record);
    return record;
  }

  /** Downloads one file, with progress in `downloads[id]` while it lasts. */
  async function download(id: string, connectionId?: string): Promise<FileDownloadResult> {
    downloads.value = { ...downloads.value, [id]: { received: 0, total: null, bytesPerSecond: 0 } };
    const handle = useWorkbench().files.download(refTo(id, connectionId), (chunk) => {
      downloads.value = { ...downloads.value, [id]: { received: chunk.received, total: chunk.total, bytesPerSecond: chunk.bytesPerSecond } };
    });
    try {
      return await handle.result;
    } finally {
      const { [id]: _done, ...rest } = downloads.value;
      downloads.value = rest;
    }
  }

  function dispose(): void {
    if (refreshTimer) clearTimeout(refreshTimer);
    refreshTimer = null;
    unsubscribe?.();
    unsubscribe = null;
  }

  return {
    items, sortBy, order, limit, pageTokens, nextToken, filter, filterError, filterText, builder, builderFits, filterReading, loading, loaded, error, offline, source, localQuery, downloads,
    refresh, setSource, setLocalQuery, nextPage, previousPage, setSort, setLimit, applyFilter, clearFilter, merge, listen, remove, update, createPublicUrl, revokePublicUrl, download, dispose,
  };
});

/** The builder as it opens: one empty name row. */
export function emptyBuilder(): FilterBuilderState {
  return { combine: 'AND', groups: [{ combine: 'AND', negate: false, rows: [{ field: 'name', op: ':', value: '' }] }] };
}

/** A filter's text as the parser groups it (see printer.ts); '' for none, the text itself if it does not parse. */
export function readFilter(text: string): string {
  const parsed = parseFilter(text);
  if (!parsed.ok) return text.trim();
  return parsed.expr ? printFilter(parsed.expr) : '';
}
