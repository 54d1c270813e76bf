/**
 * What every text-generation family (chat, Responses, Messages, legacy completions) has in common
 * on the contract: the send input (connection, request body, extra headers) and the chunks the
 * renderer sees while a run lasts. Each interface's own output is normalised by main into the
 * same chunk kinds (choices of content / reasoning / tool calls), so one run view serves all four;
 * what only one interface has (a response id, a stop sequence, citations) travels as `meta`.
 */
import { z } from 'zod';
import type { ChatToolCall, ChatUsage, LogprobEntry } from '../wire/chat';
import type { CapturedRequest, RunGroup } from './runs';

/**
 * Extra request headers (e.g. the sandbox's `x-sandbox-fault`, or `x-svc-conv-id`). Auth and
 * framing headers are the client's own and cannot be set here.
 */
export const ExtraHeadersSchema = z
  .record(
    z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'header names are letters, digits and dashes'),
    z.string().max(2048).regex(/^[^\r\n]*$/, 'header values cannot contain line breaks'),
  )
  .refine(
    (h) =>
      Object.keys(h).every(
        (k) => !/^(authorization|x-api-key|host|content-length|content-type|connection|transfer-encoding|cookie)$/i.test(k),
      ),
    'authorization, host, cookie and framing headers cannot be set',
  );

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
  | { type: 'meta'; meta: TextRunMeta };
