/**
 * The window's side of a deferred chat. `startDeferredChat` writes the run and its durable job in
 * one transaction (before anything is sent), then follows the job; `followDeferredChat` follows a
 * job already running (a reloaded chat view). Following forwards the job's progress as the chunks
 * every text run sends (and, while the job waits out an outage, that it waits and why) and ends
 * with the recorded run. If the window goes away only the follower
 * stops: the job keeps running in main and records the result.
 */
import { WorkbenchFailure } from '../../../shared/contract/errors';
import type { JobSummary } from '../../../shared/contract/jobs';
import type { RunGroup, RunRecord } from '../../../shared/contract/runs';
import type { ChatRequest } from '../../../shared/wire/chat';
import type { JobQueue } from '../../jobs/job-queue';
import { newJobId } from '../../jobs/job-queue';
import type { BlobStore } from '../../store/blobs';
import type { Db } from '../../store/db';
import { activeJobForRun } from '../../store/jobs';
import { getRun, insertRun } from '../../store/runs';
import type { ResolvedConnection } from '../../services/connections-service';
import { DEFERRED_CHAT_KIND, IDEMPOTENCY_HEADER, type DeferredChatData, type DeferredPendingDetail } from './deferred-chat-job';
import { newRunId } from '../../services/run-recorder';
import { storeRequestMedia } from '../../services/request-media';
import { pendingRun, type TextRunContext } from '../../services/text-run';

export interface DeferredChatDeps {
  db: Db;
  jobs: JobQueue;
  now: () => number;
  /** Where inline base64 media of the recorded request goes (the run row keeps references). */
  blobs?: BlobStore;
}

/** Records the run and its job together, then follows the job until it ends. */
export async function startDeferredChat(
  deps: DeferredChatDeps,
  post: { connection: ResolvedConnection; path: string; body: ChatRequest; headers: Record<string, string>; group?: RunGroup },
  ctx: TextRunContext,
): Promise<RunRecord> {
  const { connection, body } = post;
  const jobId = newJobId();
  // The recorded request is the one sent, Idempotency-Key included.
  const request = connection.client.describe({ method: 'POST', path: post.path, body, headers: { ...post.headers, [IDEMPOTENCY_HEADER]: jobId } });
  const startedAt = deps.now();
  // Media leaves the run row as for every text run: blobs first, then the row that refers to them.
  const recorded = deps.blobs ? await storeRequestMedia(deps.blobs, request) : null;
  const run = {
    ...pendingRun({ connection, endpoint: 'chat.completions', model: String(body.model ?? ''), request }, newRunId(), startedAt),
    ...(recorded?.blobs.length ? { request: recorded.request, blobs: recorded.blobs } : {}),
    group: post.group,
  };
  const data: DeferredChatData = { runId: run.id, connectionId: connection.profile.id, body: body as unknown as DeferredChatData['body'], headers: post.headers, requestId: null, startedAt };
  deps.jobs.add(DEFERRED_CHAT_KIND, data, { id: jobId, runId: run.id, insert: (db) => insertRun(db, run) });
  ctx.emit({ type: 'started', runId: run.id, request, isSandbox: connection.isSandbox, jobId });
  return follow(deps, jobId, run.id, ctx);
}

/**
 * Follows the unfinished job that carries run `runId`; a run no job carries any more is returned
 * as recorded. Throws not_found for an unknown run.
 */
export function followDeferredChat(deps: DeferredChatDeps, runId: string, ctx: TextRunContext): Promise<RunRecord> {
  const record = getRun(deps.db, runId);
  if (!record) throw new WorkbenchFailure({ code: 'not_found', message: `There is no run ${runId} in History.` });
  const job = activeJobForRun(deps.db, runId);
  ctx.emit({ type: 'started', runId, request: record.request, isSandbox: record.isSandbox, ...(job ? { jobId: job.id } : {}) });
  if (!job) return Promise.resolve(record);
  return follow(deps, job.id, runId, ctx);
}

function isFinished(job: JobSummary): boolean {
  return job.state === 'completed' || job.state === 'failed' || job.state === 'cancelled';
}

function follow(deps: DeferredChatDeps, jobId: string, runId: string, ctx: TextRunContext): Promise<RunRecord> {
  return new Promise<RunRecord>((resolve, reject) => {
    let answered = false;
    let settled = false;
    /** The wait last told to the page (as JSON), so each change is sent once. */
    let toldWait = 'null';
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      unwatch();
      ctx.signal.removeEventListener('abort', onAbort);
      fn();
    };
    const onChange = (job: JobSummary): void => {
      const wait = !isFinished(job) && job.wait ? { ...job.wait, message: job.error?.message ?? '' } : null;
      if (JSON.stringify(wait) !== toldWait) {
        toldWait = JSON.stringify(wait);
        ctx.emit({ type: 'waiting', wait });
      }
      if (job.progress?.stage === 'pending' && !isFinished(job)) {
        const detail = job.progress.detail as DeferredPendingDetail;
        if (!answered) {
          answered = true;
          ctx.emit({ type: 'response', status: 200, ttfbMs: detail.ttfbMs ?? 0, requestId: detail.requestId });
        }
        ctx.emit({ type: 'deferred', requestId: detail.requestId, state: 'pending', polls: detail.polls });
      }
      if (!isFinished(job)) return;
      const record = getRun(deps.db, runId);
      settle(() =>
        record ? resolve(record) : reject(new WorkbenchFailure({ code: 'not_found', message: 'The run was deleted from History while its deferred answer was pending.' })),
      );
    };
    // Only this window stops listening; the job carries on and History gets its result.
    const onAbort = (): void =>
      settle(() => reject(new WorkbenchFailure({ code: 'cancelled', message: 'Stopped following the deferred run; it keeps running and History will show its answer.' })));
    const unwatch = deps.jobs.watch(jobId, onChange);
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const current = deps.jobs.summary(jobId);
    if (ctx.signal.aborted) onAbort();
    else if (current) onChange(current);
  });
}
