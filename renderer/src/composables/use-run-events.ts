/**
 * A run's raw SSE events, fetched from main only when something shows them (`history.events`, a
 * page at a time): a RunRecord carries just `eventCount`, so opening History or finishing a run
 * never moves a long stream's log across the bridge. `eager` loads as soon as the record is known
 * (the Messages timeline); otherwise `load()` is called when the Events tab opens.
 *
 *   const { events, loading, error, load } = useRunEvents(() => props.record);
 */
import { ref, shallowRef, watch } from 'vue';
import type { CapturedEvent, RunRecord } from '@shared/contract/runs';
import { MAX_EVENTS_PAGE } from '@shared/contract/history';
import { useWorkbench } from '../api';
import { toWorkbenchError } from '../lib/errors';

export function useRunEvents(record: () => RunRecord | null | undefined, options: { eager?: boolean } = {}) {
  const api = useWorkbench();
  /** The whole log once loaded; shallow because it can hold tens of thousands of rows. */
  const events = shallowRef<CapturedEvent[]>([]);
  const loading = ref(false);
  const error = ref<string | null>(null);
  let loadedKey: string | null = null;
  const keyOf = (r: RunRecord | null | undefined): string | null => (r ? `${r.id}:${r.eventCount}` : null);

  async function load(): Promise<void> {
    const r = record();
    const key = keyOf(r);
    if (!r || key === loadedKey) return;
    loadedKey = key;
    error.value = null;
    if (r.eventCount === 0) {
      events.value = [];
      return;
    }
    loading.value = true;
    try {
      const all: CapturedEvent[] = [];
      for (let offset = 0; offset < r.eventCount; ) {
        const page = await api.history.events({ id: r.id, offset, limit: MAX_EVENTS_PAGE });
        if (keyOf(record()) !== key) return;
        all.push(...page.events);
        if (page.events.length === 0) break;
        offset += page.events.length;
      }
      events.value = all;
    } catch (e) {
      if (keyOf(record()) !== key) return;
      loadedKey = null;
      error.value = toWorkbenchError(e).message;
    } finally {
      if (keyOf(record()) === key) loading.value = false;
    }
  }

  watch(
    () => keyOf(record()),
    () => {
      events.value = [];
      loadedKey = null;
      loading.value = false;
      if (options.eager) void load();
    },
    { immediate: true },
  );

  return { events, loading, error, load };
}
