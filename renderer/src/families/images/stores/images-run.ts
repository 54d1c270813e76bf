/**
 * The Images playground's run: one request at a time, its progress (sending, then downloading
 * k of n into the gallery), the result (gallery items with the cost), Stop, and the last result
 * read back after a reload (images.ofRun).
 */
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { WorkbenchError } from '@shared/contract/errors';
import type { ImageEditInput, ImageGenerateInput, ImageRunResult } from '@shared/families/images/contract';
import { useWorkbench } from '../../../api';
import { useRunHandle } from '../../../composables/use-run-handle';

export type ImagesPhase = 'idle' | 'sending' | 'downloading' | 'done' | 'error' | 'cancelled';

export const useImagesRunStore = defineStore('images-run', () => {
  const phase = ref<ImagesPhase>('idle');
  const runId = ref<string | null>(null);
  const progress = ref<{ done: number; total: number } | null>(null);
  const result = shallowRef<ImageRunResult | null>(null);
  const error = shallowRef<WorkbenchError | null>(null);
  const run = useRunHandle<ImageRunResult, ImagesPhase>({ phase, result, runId, error });

  const busy = (): boolean => phase.value === 'sending' || phase.value === 'downloading';

  /** Sends the request; resolves with the result (null when it failed or was stopped). */
  async function send(mode: 'generate' | 'edit', input: ImageGenerateInput | ImageEditInput, onStarted?: (runId: string) => void): Promise<ImageRunResult | null> {
    if (busy()) return null;
    phase.value = 'sending';
    progress.value = null;
    error.value = null;
    result.value = null;
    runId.value = null;
    const api = useWorkbench().images;
    const onChunk = (c: { type: 'started'; runId: string } | { type: 'sent' } | { type: 'downloading'; done: number; total: number }): void => {
      if (c.type === 'started') {
        runId.value = c.runId;
        onStarted?.(c.runId);
      } else if (c.type === 'downloading') {
        phase.value = 'downloading';
        progress.value = { done: c.done, total: c.total };
      }
    };
    const h = mode === 'edit' ? api.edit(input as ImageEditInput, onChunk) : api.generate(input as ImageGenerateInput, onChunk);
    return run.settle(h);
  }

  async function stop(): Promise<void> {
    await run.cancel();
  }

  /** Shows run `id`'s result again (a reload); quiet when main no longer has it. */
  async function restore(id: string): Promise<void> {
    if (busy() || result.value?.runId === id) return;
    try {
      const r = await useWorkbench().images.ofRun({ runId: id });
      if (r && !busy()) {
        result.value = r;
        runId.value = r.runId;
        phase.value = 'done';
      }
    } catch {
      // Not built yet, or the run is gone: the view starts empty.
    }
  }

  function clear(): void {
    if (busy()) return;
    phase.value = 'idle';
    result.value = null;
    error.value = null;
    progress.value = null;
    runId.value = null;
  }

  /** Replaces a result image (a thumbnail arrived, or it was deleted from the gallery). */
  function patchItem(id: string, next: ImageRunResult['images'][number] | null): void {
    const r = result.value;
    if (!r || !r.images.some((i) => i.id === id)) return;
    result.value = { ...r, images: next ? r.images.map((i) => (i.id === id ? next : i)) : r.images.filter((i) => i.id !== id) };
  }

  return { phase, runId, progress, result, error, busy, send, stop, restore, clear, patchItem };
});
