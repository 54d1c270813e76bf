/**
 * "Run again" from a History entry: sends a recorded request at once, as recorded, on the
 * connection it was recorded with, and holds the new run beside the recorded one (the entry view
 * shows both). The starter table is keyed by PlaygroundId like the "Open in playground" loaders,
 * so a new playground without one is a compile error.
 *
 *   const again = useRunAgain();
 *   await again.start(record);   // never rejects; failures land in again.error
 */
import { onScopeDispose, ref } from 'vue';
import type { StreamHandle } from '@shared/contract/api';
import type { RunRecord } from '@shared/contract/runs';
import type { TextStreamChunk } from '@shared/contract/text';
import { WorkbenchFailure } from '@shared/contract/errors';
import { endpointInfo, type PlaygroundId, type TextPlaygroundId } from '@shared/families';
import { useWorkbench } from '../api';
import { CHAT_RUN_JOBS } from '../families/chat/stores/chat-run';
import { withRequestAsSent } from './request-as-sent';
import { useTextRun } from './use-text-run';

type Starter = (record: RunRecord, onChunk: (chunk: TextStreamChunk) => void) => StreamHandle<RunRecord>;

/**
 * What every family's send takes: the recorded body (main validates it again), on the recorded
 * connection. Extra headers are not repeated: the record keeps them masked.
 */
function inputOf<I extends { connectionId?: string; request: unknown }>(record: RunRecord): I {
  return { connectionId: record.connectionId, request: record.request.body } as I;
}

const STARTERS: Record<TextPlaygroundId, Starter> = {
  chat: (record, onChunk) => useWorkbench().chat.send(inputOf(record), onChunk),
  responses: (record, onChunk) => useWorkbench().responses.create(inputOf(record), onChunk),
  messages: (record, onChunk) => useWorkbench().messages.send(inputOf(record), onChunk),
  legacy: (record, onChunk) =>
    record.endpoint === 'complete' ? useWorkbench().completions.complete(inputOf(record), onChunk) : useWorkbench().completions.send(inputOf(record), onChunk),
};

/** The text playground `record` can be sent again in, or null (an image run opens in its playground only). */
function starterOf(target: PlaygroundId | null | undefined): Starter | null {
  return target && target in STARTERS ? STARTERS[target as TextPlaygroundId] : null;
}

/** Whether `record` can be sent again from History at once (a text run a playground re-opens). */
export function canRunAgain(record: RunRecord): boolean {
  return starterOf(endpointInfo(record.endpoint)?.rerun) !== null;
}

/**
 * Asks main for the request as sent first (History's record holds its media as references), then
 * starts the family's stream with it; Stop works in either step.
 */
function startAsSent(record: RunRecord, onChunk: (chunk: TextStreamChunk) => void): StreamHandle<RunRecord> {
  let started: StreamHandle<RunRecord> | null = null;
  let stopped = false;
  const result = withRequestAsSent(record).then((sent) => {
    if (stopped) throw new WorkbenchFailure({ code: 'cancelled', message: 'Stopped before it was sent.' });
    started = starterOf(endpointInfo(sent.endpoint)?.rerun)!(sent, onChunk);
    return started.result;
  });
  return {
    get streamId() {
      return started?.streamId ?? '';
    },
    result,
    async cancel() {
      stopped = true;
      await started?.cancel();
    },
  };
}

export function useRunAgain() {
  // Chat's deferred runs are durable jobs: a Stop cancels the job, as in the Chat playground.
  const run = useTextRun<RunRecord>(startAsSent, CHAT_RUN_JOBS);
  /** The id of the recorded run this one repeats (null before the first Run again). */
  const sourceId = ref<string | null>(null);

  /** Sends `record`'s request again; resolves with the new record, or null (never rejects). */
  async function start(record: RunRecord): Promise<RunRecord | null> {
    if (!canRunAgain(record)) return null;
    sourceId.value = record.id;
    return run.send(record);
  }

  /** Forgets the new run (another entry was opened); one under way is stopped. */
  function clear(): void {
    run.reset();
    sourceId.value = null;
  }
  // Leaving the entry stops a run nobody can see any more (or stop).
  onScopeDispose(clear);

  return { ...run, sourceId, start, clear };
}

export type RunAgain = ReturnType<typeof useRunAgain>;
