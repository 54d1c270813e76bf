/**
 * Runs chat completions — streamed, plain or deferred — and records every run, whatever happens:
 * the request before it leaves, the events as they arrive (checkpointed), and the end state
 * (completed / cancelled / incomplete / error) with the partial output kept.
 */
import { ChatAssembler } from '../api/chat-assembler';
import { createChatCompletion, streamChatCompletion } from '../api/chat';
import { toWorkbenchError } from '../api/errors';
import type { ChatSendInput, ChatStreamChunk } from '../../shared/contract/chat';
import type { WorkbenchError } from '../../shared/contract/errors';
import type { RunRecord, RunStatus } from '../../shared/contract/runs';
import { validateChatRequest } from '../../shared/validate/chat';
import type { ChatCompletion, ChatRequest, ChatUsage, DeferredCreated } from '../../shared/wire/chat';
import { pollDeferredCompletion } from '../jobs/deferred-poller';
import type { Db } from '../store/db';
import type { RunUpdate } from '../store/runs';
import { completionText, promptText } from './chat-text';
import type { ConnectionsService, ResolvedConnection } from './connections-service';
import { DeltaBatcher } from './delta-batcher';
import type { ModelsService } from './models-service';
import { newRunId, RunRecorder } from './run-recorder';
import { runCost, statusForError } from './text-run';

export interface ChatRunContext {
  signal: AbortSignal;
  emit(chunk: ChatStreamChunk): void;
}

export interface ChatServiceOptions {
  db: Db;
  connections: ConnectionsService;
  models: ModelsService;
  now?: () => number;
  /** Deferred polling cadence (tests shorten it). */
  deferredPollMs?: number;
}

const CHAT_PATH = '/v1/chat/completions';

interface RunOptions {
  connection: ResolvedConnection;
  body: ChatRequest;
  recorder: RunRecorder;
  ctx: ChatRunContext;
  startedAt: number;
  headers: Record<string, string>;
}

export class ChatService {
  private readonly now: () => number;

  constructor(private readonly options: ChatServiceOptions) {
    this.now = options.now ?? Date.now;
  }

  async send(input: ChatSendInput, ctx: ChatRunContext): Promise<RunRecord> {
    const connection = this.options.connections.resolve(input.connectionId);
    const request = input.request as unknown as ChatRequest;
    const mode = request.deferred ? 'deferred' : request.stream ? 'stream' : 'plain';
    const body: ChatRequest = mode === 'stream' ? request : withoutStreamOptions(request);
    const headers = input.headers ?? {};
    const captured = connection.client.describe({ method: 'POST', path: CHAT_PATH, body, headers }, mode === 'stream');
    const startedAt = this.now();
    const recorder = RunRecorder.start(this.options.db, {
      id: newRunId(),
      createdAt: startedAt,
      endpoint: 'chat.completions',
      model: request.model,
      connectionId: connection.profile.id,
      connectionName: connection.profile.name,
      isSandbox: connection.isSandbox,
      request: captured,
      promptText: promptText(request.messages ?? []),
      status: 'pending',
    });
    ctx.emit({ type: 'started', runId: recorder.id, request: captured, isSandbox: connection.isSandbox });

    const violations = validateChatRequest(body);
    if (violations.length > 0) {
      const error: WorkbenchError = {
        code: 'invalid_input',
        message: violations.map((v) => v.message).join('; '),
        issues: violations.map((v) => ({ path: v.field, message: v.message })),
      };
      return recorder.finish({ status: 'error', error, timings: { startedAt, ttfbMs: null, totalMs: 0 } });
    }

    const run: RunOptions = { connection, body, recorder, ctx, startedAt, headers };
    if (mode === 'stream') return this.runStream(run);
    return this.runPlain(run, mode === 'deferred');
  }

  private async runStream({ connection, body, recorder, ctx, startedAt, headers }: RunOptions): Promise<RunRecord> {
    const assembler = new ChatAssembler();
    const batcher = new DeltaBatcher(ctx.emit);
    let ttfbMs: number | null = null;
    let opened: { status: number; headers: Record<string, string> } | null = null;
    let chunks = 0;
    const partial = (): RunUpdate => {
      const output = assembler.result();
      return { output, outputText: completionText(output) };
    };
    const outcome = await streamChatCompletion(
      connection.client,
      body,
      {
        onOpen: (meta) => {
          ttfbMs = meta.ttfbMs;
          opened = { status: meta.status, headers: meta.headers };
          ctx.emit({ type: 'response', status: meta.status, ttfbMs: meta.ttfbMs, requestId: meta.requestId });
        },
        onRawEvent: (raw, atMs) => {
          recorder.events.push({ t: Math.round(atMs), data: raw.data });
        },
        onChunk: (chunk) => {
          chunks += 1;
          assembler.push(chunk);
          for (const choice of chunk.choices ?? []) {
            const d = choice.delta ?? {};
            batcher.push({
              type: 'delta',
              choice: choice.index,
              ...(d.content ? { content: d.content } : {}),
              ...(d.reasoning_content ? { reasoning: d.reasoning_content } : {}),
              ...(d.tool_calls?.length ? { toolCalls: d.tool_calls } : {}),
              ...(choice.logprobs?.content?.length ? { logprobs: choice.logprobs.content } : {}),
              ...(choice.finish_reason ? { finishReason: choice.finish_reason } : {}),
            });
          }
          if (chunk.usage) {
            batcher.flush();
            ctx.emit({ type: 'usage', usage: chunk.usage });
          }
          recorder.checkpoint(partial);
        },
      },
      { signal: ctx.signal, headers, onRetry: (info) => ctx.emit({ type: 'retry', ...info }) },
    );
    batcher.dispose();
    const output = chunks > 0 ? assembler.result() : null;
    // Only a usage chunk says what was used; a cut or cancelled stream has none, and that is
    // shown as unknown rather than as zero.
    const usage = assembler.usage();
    const response = outcome.meta ?? opened;
    return recorder.finish({
      status: outcome.ok ? 'completed' : statusForError(outcome.error!, chunks > 0),
      error: outcome.ok || outcome.error!.kind === 'cancelled' ? null : toWorkbenchError(outcome.error!),
      response: response ? { status: response.status, headers: response.headers, body: outcome.error?.body ?? null } : null,
      output,
      outputText: completionText(output),
      usage: usageOrNull(usage),
      costTicks: this.cost(connection, body.model, usageOrNull(usage)),
      retries: outcome.retries,
      timings: { startedAt, ttfbMs, totalMs: Math.round(outcome.totalMs) },
    });
  }

  private async runPlain(run: RunOptions, deferred: boolean): Promise<RunRecord> {
    const { connection, body, recorder, ctx, startedAt, headers } = run;
    const result = await createChatCompletion(connection.client, body, {
      signal: ctx.signal,
      headers,
      onRetry: (info) => ctx.emit({ type: 'retry', ...info }),
    });
    const timings = { startedAt, ttfbMs: result.meta?.ttfbMs ?? null, totalMs: Math.round(result.totalMs) };
    const response = result.meta
      ? { status: result.meta.status, headers: result.meta.headers, body: result.ok ? result.value : (result.error.body ?? null) }
      : null;
    if (result.meta) ctx.emit({ type: 'response', status: result.meta.status, ttfbMs: result.meta.ttfbMs, requestId: result.meta.requestId });
    if (!result.ok) {
      return recorder.finish({
        status: statusForError(result.error, false),
        error: result.error.kind === 'cancelled' ? null : toWorkbenchError(result.error),
        response,
        retries: result.retries,
        timings,
      });
    }
    if (!deferred) {
      const completion = result.value as ChatCompletion;
      this.emitCompletion(completion, ctx);
      return recorder.finish({
        status: 'completed',
        response,
        output: completion,
        outputText: completionText(completion),
        usage: usageOrNull(completion.usage),
        costTicks: this.cost(connection, body.model, usageOrNull(completion.usage)),
        retries: result.retries,
        timings,
      });
    }
    return this.awaitDeferred(run, (result.value as DeferredCreated).request_id, response, result.retries);
  }

  private async awaitDeferred(
    { connection, body, recorder, ctx, startedAt }: RunOptions,
    requestId: string,
    response: RunUpdate['response'],
    retries: number,
  ): Promise<RunRecord> {
    recorder.update({ deferredRequestId: requestId, response });
    ctx.emit({ type: 'deferred', requestId, state: 'pending', polls: 0 });
    const outcome = await pollDeferredCompletion(connection.client, requestId, {
      signal: ctx.signal,
      firstDelayMs: this.options.deferredPollMs,
      onPending: (polls) => ctx.emit({ type: 'deferred', requestId, state: 'pending', polls }),
    });
    const timings = { startedAt, ttfbMs: null, totalMs: this.now() - startedAt };
    if (!outcome.ok) {
      return recorder.finish({
        status: statusForError(outcome.error, false),
        error: outcome.error.kind === 'cancelled' ? null : toWorkbenchError(outcome.error),
        retries,
        timings,
      });
    }
    this.emitCompletion(outcome.completion, ctx);
    return recorder.finish({
      status: 'completed',
      response: { status: 200, headers: {}, body: outcome.completion },
      output: outcome.completion,
      outputText: completionText(outcome.completion),
      usage: usageOrNull(outcome.completion.usage),
      costTicks: this.cost(connection, body.model, usageOrNull(outcome.completion.usage)),
      retries,
      timings,
    });
  }

  /** A whole completion goes to the renderer as the same deltas a stream would give. */
  private emitCompletion(completion: ChatCompletion, ctx: ChatRunContext): void {
    for (const choice of completion.choices) {
      const m = choice.message;
      ctx.emit({
        type: 'delta',
        choice: choice.index,
        ...(m.reasoning_content ? { reasoning: m.reasoning_content } : {}),
        ...(m.content ? { content: m.content } : {}),
        ...(m.tool_calls?.length ? { toolCalls: m.tool_calls } : {}),
        ...(choice.logprobs?.content?.length ? { logprobs: choice.logprobs.content } : {}),
        finishReason: choice.finish_reason,
      });
    }
    if (completion.usage) ctx.emit({ type: 'usage', usage: completion.usage });
  }

  private cost(connection: ResolvedConnection, model: string, usage: ChatUsage | null): number | null {
    return runCost(this.options.models, connection, model, usage);
  }
}

/** A plain or deferred request: `stream_options` only belongs with `stream: true`. */
function withoutStreamOptions(request: ChatRequest): ChatRequest {
  const { stream_options: _dropped, ...rest } = request;
  return { ...rest, stream: false };
}

function usageOrNull(usage: ChatUsage | null | undefined): ChatUsage | null {
  return usage && typeof usage === 'object' && typeof usage.prompt_tokens === 'number' ? usage : null;
}
