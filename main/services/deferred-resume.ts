/**
 * After a restart, deferred completions that were still pending are polled again until they
 * finish, so closing the app never loses a deferred result.
 */
import { toWorkbenchError } from '../api/errors';
import { pollDeferredCompletion } from '../jobs/deferred-poller';
import type { Db } from '../store/db';
import { pendingDeferredRuns, updateRun } from '../store/runs';
import { outputPreviewText, outputTextOf } from './chat-text';
import type { ConnectionsService } from './connections-service';

export class DeferredResumer {
  private readonly controller = new AbortController();
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly connections: ConnectionsService,
    private readonly log: (line: string) => void,
  ) {}

  /** Starts polling every pending deferred run; returns how many were resumed. */
  resumeAll(): number {
    const runs = pendingDeferredRuns(this.db);
    for (const run of runs) {
      if (!run.deferredRequestId) continue;
      const task = this.resume(run.id, run.connectionId, run.deferredRequestId).finally(() => this.running.delete(task));
      this.running.add(task);
    }
    return runs.length;
  }

  private async resume(runId: string, connectionId: string, requestId: string): Promise<void> {
    try {
      const { client } = this.connections.resolve(connectionId);
      const outcome = await pollDeferredCompletion(client, requestId, { signal: this.controller.signal });
      if (this.controller.signal.aborted) return;
      if (outcome.ok) {
        const c = outcome.completion;
        updateRun(this.db, runId, {
          status: 'completed',
          output: c,
          outputText: outputTextOf('chat.completions', c),
          outputPreview: outputPreviewText('chat.completions', c),
          usage: c.usage ?? null,
          costTicks: c.usage?.cost_in_usd_ticks ?? null,
        });
      } else {
        updateRun(this.db, runId, { status: 'error', error: toWorkbenchError(outcome.error) });
      }
    } catch (error) {
      this.log(`deferred run ${runId} could not be resumed: ${(error as Error).message}`);
    }
  }

  async dispose(): Promise<void> {
    this.controller.abort();
    await Promise.allSettled([...this.running]);
  }
}
