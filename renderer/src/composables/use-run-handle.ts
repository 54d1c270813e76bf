/**
 * The one-run-at-a-time handle the REST/stream run stores share (Images, Transcription, Speech):
 * the run in flight, its result settled into the store's refs (done, cancelled or error), and
 * Stop. A run that another has replaced settles to null without touching the refs, so a late
 * answer never overwrites the run the user is looking at.
 */
import type { Ref } from 'vue';
import type { StreamHandle } from '@shared/contract/api';
import type { WorkbenchError } from '@shared/contract/errors';
import { toWorkbenchError } from '../lib/errors';

type Settled = 'done' | 'error' | 'cancelled';

export interface RunRefs<R extends { runId: string }, P extends string> {
  phase: Ref<P>;
  result: Ref<R | null>;
  runId: Ref<string | null>;
  error: Ref<WorkbenchError | null>;
}

export interface SettleHooks<R> {
  /** Before a result is shown (the stream's player finishing). */
  beforeDone?: (result: R) => Promise<void> | void;
  /** Before a failure or cancel is shown (the stream's player stopped). */
  beforeFailed?: (error: WorkbenchError) => Promise<void> | void;
}

export function useRunHandle<R extends { runId: string }, P extends string>(refs: Settled extends P ? RunRefs<R, P> : never) {
  let handle: StreamHandle<R> | null = null;

  /** Makes `h` the run in flight and settles it; null when it failed, was stopped or was replaced. */
  async function settle(h: StreamHandle<R>, hooks: SettleHooks<R> = {}): Promise<R | null> {
    handle = h;
    try {
      const r = await h.result;
      if (handle !== h) return null;
      await hooks.beforeDone?.(r);
      refs.result.value = r;
      refs.runId.value = r.runId;
      refs.phase.value = 'done' as P;
      return r;
    } catch (err) {
      if (handle !== h) return null;
      const e = toWorkbenchError(err);
      await hooks.beforeFailed?.(e);
      if (e.code === 'cancelled') refs.phase.value = 'cancelled' as P;
      else {
        refs.error.value = e;
        refs.phase.value = 'error' as P;
      }
      return null;
    } finally {
      if (handle === h) handle = null;
    }
  }

  /** Stops the run in flight (its settle() then gives `cancelled`); nothing when none is. */
  async function cancel(): Promise<void> {
    await handle?.cancel();
  }

  return { settle, cancel };
}
