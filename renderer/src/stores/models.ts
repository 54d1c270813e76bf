/**
 * The model catalogue of the active connection, and the Models table's filter and sort.
 * Chat's model picker reads `languageModels` from here.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { Catalogue, ModelKind } from '@shared/families/models/contract';
import type { WorkbenchError } from '@shared/contract/errors';
import { useWorkbench } from '../api';
import { toWorkbenchError } from '../lib/errors';
import { onLinkRegained } from '../composables/use-link-regained';
import { allModalities, filterRows, sortRows, toRow, type SortField } from '../lib/catalogue';

export const useModelsStore = defineStore('models', () => {
  const catalogue = shallowRef<Catalogue | null>(null);
  const loading = ref(false);
  const error = ref<WorkbenchError | null>(null);
  const text = ref('');
  const kind = ref<ModelKind | null>(null);
  const modality = ref<string | null>(null);
  const sortField = ref<SortField>('id');
  const sortOrder = ref<1 | -1>(1);
  let inflight: Promise<void> | null = null;

  const rows = computed(() => (catalogue.value?.entries ?? []).map(toRow));
  const visible = computed(() =>
    sortRows(filterRows(rows.value, { text: text.value, kind: kind.value, modality: modality.value }), sortField.value, sortOrder.value),
  );
  const modalities = computed(() => allModalities(rows.value));
  const languageModels = computed(() => rows.value.filter((r) => r.kind === 'language'));
  const isSandbox = computed(() => catalogue.value?.isSandbox ?? false);

  async function fetchCatalogue(refresh: boolean): Promise<void> {
    try {
      catalogue.value = await useWorkbench().models.catalogue(refresh ? { refresh: true } : {});
      error.value = null;
    } catch (err) {
      error.value = toWorkbenchError(err);
    }
  }

  // A catalogue that could not be read while the page was cut off from main is read once it is back.
  onLinkRegained(() => {
    if (error.value) void load();
  });

  /** Fetches the catalogue (refresh bypasses main's cache). Concurrent calls share one request. */
  function load(opts: { refresh?: boolean } = {}): Promise<void> {
    if (inflight && !opts.refresh) return inflight;
    loading.value = true;
    const run: Promise<void> = fetchCatalogue(opts.refresh === true).finally(() => {
      if (inflight === run) {
        inflight = null;
        loading.value = false;
      }
    });
    inflight = run;
    return run;
  }

  /** Loads once; later calls reuse what is there. */
  async function ensureLoaded(): Promise<void> {
    if (!catalogue.value) await load();
  }

  /** Column-header sort: same field flips the direction, a new field starts ascending. */
  function sortBy(field: SortField, order?: 1 | -1): void {
    if (order) sortOrder.value = order;
    else sortOrder.value = sortField.value === field ? (sortOrder.value === 1 ? -1 : 1) : 1;
    sortField.value = field;
  }

  /** Forgets the catalogue (after switching connection) so the next view reloads it. */
  function reset(): void {
    catalogue.value = null;
    error.value = null;
  }

  return {
    catalogue, loading, error, text, kind, modality, sortField, sortOrder,
    rows, visible, modalities, languageModels, isSandbox,
    load, ensureLoaded, sortBy, reset,
  };
});
