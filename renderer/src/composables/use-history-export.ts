/**
 * History's selection and its export as JSON Lines: main writes the file (Electron: where the
 * save dialog says; browser mode: a one-time link handed to the browser's download) and the user
 * is told where it went, or why it failed, in a toast.
 */
import { computed, ref } from 'vue';
import { useToast } from 'primevue/usetoast';
import type { RunSummary } from '@shared/contract/runs';
import { MAX_EXPORT_RUNS } from '@shared/contract/history';
import { formatBytes } from '@shared/byte-size';
import { useWorkbench } from '../api';
import { toWorkbenchError } from '../lib/errors';
import { saveThroughBrowser } from '../lib/save-download';

export function useHistoryExport() {
  const selected = ref<RunSummary[]>([]);
  const exporting = ref(false);
  const toast = useToast();

  /** Why Export is not possible now, or null. */
  const blockedReason = computed(() => {
    if (selected.value.length === 0) return 'Select runs with their check boxes to export them';
    if (selected.value.length > MAX_EXPORT_RUNS) return `Export takes at most ${MAX_EXPORT_RUNS} runs at once`;
    return null;
  });

  async function exportSelected(): Promise<void> {
    if (exporting.value || blockedReason.value) return;
    exporting.value = true;
    try {
      const result = await useWorkbench().history.exportJsonl({ ids: selected.value.map((run) => run.id) });
      if (result.cancelled) return;
      if (result.url) saveThroughBrowser(result.url, result.filename);
      const what = `${result.runs} run${result.runs === 1 ? '' : 's'}, ${formatBytes(result.bytes)}`;
      toast.add({ severity: 'success', summary: 'Exported as JSONL', detail: result.savedTo ? `${what}, saved to ${result.savedTo}` : `${what}: ${result.filename}`, life: 5000 });
    } catch (err) {
      toast.add({ severity: 'error', summary: 'Export failed', detail: toWorkbenchError(err).message, life: 8000 });
    } finally {
      exporting.value = false;
    }
  }

  return { selected, exporting, blockedReason, exportSelected };
}
