/**
 * What every text-generation family (chat, Responses, Messages, legacy completions) has in common
 * on the contract: the send input (connection, request body, extra headers) and the chunks the
 * renderer sees while a run lasts. Each interface's own output is normalised by main into the
 * same chunk kinds (choices of content / reasoning / tool calls), so one run view serves all four;
 * what only one interface has (a response id, a stop sequence, citations) travels as `meta`.
 */
import { z } from 'zod';
import type { ChatToolCall, ChatUsage, LogprobEntry } from '../wire/chat';
import type { JobWait } from './jobs';
import type { CapturedRequest, RunGroup } from './runs';
import { headerProblem } from '../request-headers';

/**
 * Extra request headers (e.g. the sandbox's `x-sandbox-fault`, or `x-svc-conv-id`). Headers the
 * app owns (auth, framing, host) are refused, each with why (shared/request-headers.ts).
 */
export const ExtraHeadersSchema = z.record(z.string(), z.string()).superRefine((headers, ctx) => {
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    const problem = seen.has(lower) ? `${name} is given twice` : headerProblem(name, value);
    seen.add(lower);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [name] });
  }
});

export const ConnectionIdSchema = z.string().max(64);

/**
 * Runs started together as one comparison (Compare's columns share an id). History lists a
 * group's runs together and labels them by kind.
 */
export const RunGroupSchema = z
  .object({
    kind: z.literal('compare'),
    id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a group id is 1-64 letters, digits, _ or -'),
  })
  .strict() satisfies z.ZodType<RunGroup>;

/** `{connectionId?, request, headers?, group?}` around one interface's request schema. */
export function textSendSchema<R extends z.ZodType>(request: R) {
  return z
    .object({
      /** Defaults to the active connection. */
      connectionId: ConnectionIdSchema.optional(),
      request,
      headers: ExtraHeadersSchema.optional(),
      group: RunGroupSchema.optional(),
    })
    .strict();
}

/** A source the answer used (search on). The sandbox's are synthetic and say so. */
export interface Citation {
  url: string;
  title?: string;
}

/**
 * Interface-specific facts about a run, sent as they become known (later values win per field).
 * Responses: the response id, whether the service stored it and when it will delete it, its
 * status and why it is incomplete. Messages / Complete: why it stopped.
 */
export interface TextRunMeta {
  responseId?: string;
  previousResponseId?: string | null;
  stored?: boolean;
  /** Epoch ms when the service deletes the stored response (created + 30 days); null if not stored. */
  expiresAt?: number | null;
  /** The service's own status (`completed`, `incomplete`, `in_progress`). */
  serviceStatus?: string;
  incompleteReason?: string | null;
  stopReason?: string | null;
  stopSequence?: string | null;
  citations?: Citation[];
  numSourcesUsed?: number;
}

/** What the renderer sees while a text run lasts. Deltas are coalesced (about one message a frame). */
export type TextStreamChunk =
  /** `jobId`: the run is carried by a durable job (deferred chat); stopping it means `jobs.cancel`. */
  | { type: 'started'; runId: string; request: CapturedRequest; isSandbox: boolean; jobId?: string }
  | { type: 'retry'; attempt: number; delayMs: number; reason: string }
  | { type: 'response'; status: number; ttfbMs: number; requestId: string | null }
  | {
      type: 'delta';
      choice: number;
      content?: string;
      reasoning?: string;
      toolCalls?: ChatToolCall[];
      logprobs?: LogprobEntry[];
      finishReason?: string | null;
    }
  /** Usage normalised to the chat shape (the interface's own usage stays in the record's output). */
  | { type: 'usage'; usage: ChatUsage }
  | { type: 'deferred'; requestId: string; state: 'pending'; polls: number }
  /**
   * The run's durable job waits out an outage (no network, 5xx, 429): since when, how many tries
   * failed, why, the next try and the last error; null once the service answers again.
   */
  | { type: 'waiting'; wait: (JobWait & { message: string }) | null }
  | { type: 'meta'; meta: TextRunMeta };
