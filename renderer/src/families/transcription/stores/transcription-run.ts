/**
 * The Transcription view's REST run: a dropped or picked File (turned into a reference the way
 * every view does: bridge/user-files.ts), a reference from the drop router, a Files id or a URL;
 * one request at a time with Stop; the result and the run read back (transcription.ofRun).
 */
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { WorkbenchError } from '@shared/contract/errors';
import type { TranscribeInput, TranscribeResult, TranscriptionSource } from '@shared/families/transcription/contract';
import { useWorkbench } from '../../../api';
import { fileRefsFrom } from '../../../bridge/user-files';
import { useRunHandle } from '../../../composables/use-run-handle';
import { toWorkbenchError } from '../../../lib/errors';

export type TranscriptionPhase = 'idle' | 'staging' | 'sending' | 'done' | 'error' | 'cancelled';
export type TranscriptionOptions = Omit<TranscribeInput, 'source' | 'connectionId'>;

export const useTranscriptionRunStore = defineStore('transcription-run', () => {
  const phase = ref<TranscriptionPhase>('idle');
  const runId = ref<string | null>(null);
  const filename = ref<string | null>(null);
  const progress = ref<{ sent: number; total: number } | null>(null);
  const result = shallowRef<TranscribeResult | null>(null);
  const error = shallowRef<WorkbenchError | null>(null);
  const run = useRunHandle<TranscribeResult, TranscriptionPhase>({ phase, result, runId, error });

  const busy = (): boolean => phase.value === 'staging' || phase.value === 'sending';

  /** A File from the page (a drop on the view, the page's chooser): its reference first, then the request. */
  async function transcribeFile(file: File, options: TranscriptionOptions): Promise<TranscribeResult | null> {
    if (busy()) return null;
    phase.value = 'staging';
    error.value = null;
    filename.value = file.name;
    try {
      const [fileRef] = await fileRefsFrom([file], { api: useWorkbench(), onProgress: (p) => (progress.value = { sent: p.loaded, total: p.total }) });
      return await transcribe({ kind: 'ref', ref: fileRef!.ref }, options, file.name);
    } catch (err) {
      error.value = toWorkbenchError(err);
      phase.value = 'error';
      return null;
    }
  }

  async function transcribe(source: TranscriptionSource, options: TranscriptionOptions, name?: string): Promise<TranscribeResult | null> {
    if (phase.value === 'sending') return null;
    phase.value = 'sending';
    progress.value = null;
    error.value = null;
    result.value = null;
    runId.value = null;
    filename.value = name ?? null;
    const h = useWorkbench().transcription.transcribe({ ...options, source }, (c) => {
      if (c.type === 'started') {
        runId.value = c.runId;
        filename.value = c.filename;
      } else progress.value = { sent: c.sent, total: c.total };
    });
    return run.settle(h);
  }

  async function stop(): Promise<void> {
    await run.cancel();
  }

  /** Shows run `id`'s result (a reload, History's "open"). */
  async function load(id: string): Promise<boolean> {
    const r = await useWorkbench().transcription.ofRun({ runId: id });
    if (!r) return false;
    result.value = r;
    runId.value = r.runId;
    filename.value = r.filename;
    phase.value = 'done';
    return true;
  }

  return { phase, ofRun: (id: string) => useWorkbench().transcription.ofRun({ runId: id }), runId, filename, progress, result, error, busy, transcribeFile, transcribe, stop, load };
});
