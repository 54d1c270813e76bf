/**
 * The `deferred-chat` job: one deferred chat completion, from the create to the recorded answer,
 * run by the durable queue whatever happens to windows. The create carries `Idempotency-Key:
 * <job id>`, so a job resumed before it saved the service's request id asks again and gets the
 * same request back instead of a second one. The run row is written with the job (one
 * transaction, before the create leaves) and finished with it (one transaction), in the same
 * shape a live chat run has.
 */
import { z } from 'zod';
import { createChatCompletion } from '../../api/chat';
import type { WorkbenchError } from '../../../shared/contract/errors';
import type { RunUpdate } from '../../store/runs';
import { updateRun } from '../../store/runs';
import { chatUsageOf } from '../../../shared/text-output';
import type { ChatCompletion, ChatRequest, DeferredCreated } from '../../../shared/wire/chat';
import { pollDeferredCompletion } from '../../jobs/deferred-poller';
import { JobFailedError, jobFailureOf, type Job, type JobHandler } from '../../jobs/job-queue';
import { outputPreviewText, outputTextOf } from '../../services/chat-text';
import type { ConnectionsService } from '../../services/connections-service';
import type { ModelsService } from '../../services/models-service';
import { runCost } from '../../services/text-run';
import { redactHeaders } from '../../api/http-headers';

export const DEFERRED_CHAT_KIND = 'deferred-chat';

const DataSchema = z.object({
  runId: z.string().min(1),
  connectionId: z.string().min(1),
  /** The body as sent (and recorded). */
  body: z.looseObject({ model: z.string().optional(), messages: z.array(z.unknown()).optional() }),
  /** The user's extra headers (fault injection, routing keys), sent again on a resumed create. */
  headers: z.record(z.string(), z.string()),
  /** The service's id for the request once the create answered; null until then. */
  requestId: z.string().min(1).nullable(),
  /** Epoch ms the run started (its timings count from here, across restarts). */
  startedAt: z.number(),
  ttfbMs: z.number().nullable().optional(),
  retries: z.number().int().optional(),
});

export type DeferredChatData = z.infer<typeof DataSchema>;

/** What a finished job returns; the answer itself is recorded in the run. */
export interface DeferredChatResult {
  requestId: string;
  completion: ChatCompletion;
  polls: number;
}

/** The progress detail of the `pending` stage (the chat view shows the polls). */
export interface DeferredPendingDetail {
  requestId: string;
  polls: number;
  ttfbMs: number | null;
}

export interface DeferredChatJobDeps {
  connections: ConnectionsService;
  models: ModelsService;
  /** First poll interval (tests shorten it); grows to 5 s. */
  pollMs?: number;
  now?: () => number;
}

/** The header that makes the create safe to repeat. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

export function deferredChatJob(deps: DeferredChatJobDeps): JobHandler<DeferredChatData, DeferredChatResult> {
  const now = deps.now ?? Date.now;
  return {
    kind: DEFERRED_CHAT_KIND,
    parseData: (data) => DataSchema.parse(data),
    resultOf: (result) => ({ requestId: result.requestId, polls: result.polls }),
    // An outage of any length is waited out (no network, 5xx, 429): only a refusal ends the job.
    backoff: { firstMs: 2000, maxMs: 30_000 },

    async run(job, ctx) {
      const { client } = deps.connections.resolve(job.data.connectionId);
      let { requestId } = job.data;
      let ttfbMs = job.data.ttfbMs ?? null;
      if (!requestId) {
        ctx.progress('creating', { attempt: ctx.attempt });
        const body = job.data.body as unknown as ChatRequest;
        const created = await createChatCompletion(client, body, { signal: ctx.signal, headers: { ...job.data.headers, [IDEMPOTENCY_HEADER]: job.id } });
        if (!created.ok) throw jobFailureOf(created.error, created.meta?.headers, now());
        ctx.answered();
        const id = (created.value as DeferredCreated | null)?.request_id;
        if (typeof id !== 'string' || id === '') {
          throw new JobFailedError({ code: 'protocol', message: 'The service accepted the deferred request but sent no request_id to collect it with.', requestId: created.meta.requestId ?? undefined });
        }
        requestId = id;
        ttfbMs = created.meta.ttfbMs;
        const response = { status: created.meta.status, headers: created.meta.headers, body: created.value };
        // Created: a resume only polls, so secret-looking header values need not stay in the jobs table.
        ctx.save({ requestId: id, ttfbMs, retries: created.retries, headers: redactHeaders(job.data.headers) }, (db) => {
          if (job.runId) updateRun(db, job.runId, { deferredRequestId: id, response }, now());
        });
      }
      const pending = (polls: number): DeferredPendingDetail => ({ requestId: requestId!, polls, ttfbMs });
      ctx.progress('pending', pending(0));
      const outcome = await pollDeferredCompletion(client, requestId, {
        signal: ctx.signal,
        firstDelayMs: deps.pollMs,
        onPending: (polls) => {
          ctx.answered();
          ctx.progress('pending', pending(polls));
        },
      });
      if (!outcome.ok) throw jobFailureOf(outcome.error, outcome.headers, now());
      return { requestId, completion: outcome.completion, polls: outcome.polls };
    },

    finish(db, job, outcome) {
      if (!job.runId) return;
      const timings = { startedAt: job.data.startedAt, ttfbMs: job.data.ttfbMs ?? null, totalMs: Math.max(0, now() - job.data.startedAt) };
      let update: RunUpdate;
      if (outcome.state === 'completed') update = completedRun(deps, job, outcome.result.completion);
      else if (outcome.state === 'failed') update = { status: 'error', error: outcome.error };
      else update = { status: 'cancelled', error: null };
      updateRun(db, job.runId, { retries: job.data.retries ?? 0, timings, ...update }, now());
    },
  };
}

/** The finished run, as a plain chat run records its answer. */
function completedRun(deps: DeferredChatJobDeps, job: Job<DeferredChatData>, completion: ChatCompletion): RunUpdate {
  const usage = chatUsageOf('chat.completions', completion.usage);
  let costTicks: number | null = null;
  try {
    const connection = deps.connections.resolve(job.data.connectionId);
    costTicks = runCost(deps.models, connection, String(job.data.body.model ?? ''), usage, completion.usage);
  } catch {
    // The connection was removed meanwhile: the answer is kept, its cost is unknown.
  }
  return {
    status: 'completed',
    error: null as WorkbenchError | null,
    response: { status: 200, headers: {}, body: completion },
    output: completion,
    outputText: outputTextOf('chat.completions', completion),
    outputPreview: outputPreviewText('chat.completions', completion),
    usage,
    costTicks,
  };
}
