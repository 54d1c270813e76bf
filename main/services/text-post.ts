/**
 * The steps every recorded text POST shares (chat, Responses, Messages, `/v1/completions`,
 * `/v1/complete`): describe the request as it will be sent, begin the run, refuse it before
 * sending when the pre-flight checks fail, and otherwise hand the caller the per-call options;
 * plus the stream handlers that feed an assembler, tell the renderer, and checkpoint.
 */
import type { ResponseMeta } from '../api/client';
import type { SseEvent } from '../api/sse';
import type { TextCallOptions } from '../api/text-stream';
import type { Endpoint, RunGroup, RunRecord } from '../../shared/contract/runs';
import type { RequestViolation } from '../../shared/validate/violations';
import type { ResolvedConnection } from './connections-service';
import { storeRequestMedia } from './request-media';
import { TextRun, type TextRunContext, type TextServiceDeps } from './text-run';

/** What a text service's send takes (the contract's `textSendSchema`, validated at the boundary). */
export interface TextSendInput {
  connectionId?: string;
  request: Record<string, unknown>;
  headers?: Record<string, string>;
  group?: RunGroup;
}

/** One POST as a text service sends and records it. */
export interface TextPost<B> {
  connection: ResolvedConnection;
  endpoint: Endpoint;
  path: string;
  /** The body exactly as it is sent (and recorded). */
  body: B;
  headers: Record<string, string>;
  /** The comparison the run is part of (Compare's columns), recorded with it. */
  group?: RunGroup;
  /** Sent as a stream (the captured request says so); plain when absent. */
  stream?: boolean;
  /** Pre-flight checks: any violation records the run as `invalid_input` and nothing is sent. */
  validate(body: B): readonly RequestViolation[];
}

/**
 * Begins the run for `post` and, unless pre-flight refuses it, calls `send` with the run and the
 * options to pass to the api call (cancellation, extra headers, retry notifications).
 */
export async function runTextPost<B extends object>(
  deps: TextServiceDeps,
  ctx: TextRunContext,
  post: TextPost<B>,
  send: (run: TextRun, opts: TextCallOptions) => Promise<RunRecord>,
): Promise<RunRecord> {
  const { connection, body, headers } = post;
  const request = connection.client.describe({ method: 'POST', path: post.path, body, headers }, post.stream);
  const model = String((body as { model?: unknown }).model ?? '');
  const recorded = deps.blobs ? await storeRequestMedia(deps.blobs, request) : null;
  const run = TextRun.begin(deps, {
    connection,
    endpoint: post.endpoint,
    model,
    request,
    ctx,
    group: post.group,
    ...(recorded?.blobs.length ? { recorded } : {}),
  });
  const violations = post.validate(body);
  if (violations.length > 0) return run.reject(violations);
  return send(run, { signal: ctx.signal, headers, onRetry: run.onRetry });
}

/** An assembler of a family's stream events into its whole answer. */
export interface EventAssembler<E> {
  push(event: E): void;
  result(): object;
}

/** Stream handlers for an api stream call. */
export interface RunStreamHandlers<E> {
  onOpen(meta: ResponseMeta): void;
  onRawEvent(raw: SseEvent, atMs: number): void;
  onEvent(event: E): void;
}

/**
 * Handlers that record the stream on `run`: each event goes to `assembler`, then to `emit` (what
 * it means to the renderer), then the partial answer is checkpointed.
 */
export function streamIntoRun<E>(run: TextRun, assembler: EventAssembler<E>, emit: (event: E) => void): RunStreamHandlers<E> {
  return {
    onOpen: run.onOpen,
    onRawEvent: run.onRawEvent,
    onEvent: (event) => {
      assembler.push(event);
      emit(event);
      run.checkpoint(() => assembler.result());
    },
  };
}
