/**
 * Runs chat completions — streamed, plain or deferred — and records every run, whatever happens,
 * through the same TextRun the other text interfaces use: the request before it leaves, the
 * events as they arrive (checkpointed), and the end state (completed / cancelled / incomplete /
 * error) with the partial output kept. Deferred runs poll until the answer is ready.
 */
import { ChatAssembler } from '../api/chat-assembler';
import { createChatCompletion, streamChatCompletion } from '../api/chat';
import type { ApiResult } from '../api/client';
import type { ChatSendInput } from '../../shared/contract/chat';
import type { RunRecord } from '../../shared/contract/runs';
import { validateChatRequest } from '../../shared/validate/chat';
import type { ChatCompletion, ChatCompletionChunk, ChatRequest, DeferredCreated } from '../../shared/wire/chat';
import { pollDeferredCompletion } from '../jobs/deferred-poller';
import type { ConnectionsService } from './connections-service';
import { runTextPost, streamIntoRun } from './text-post';
import type { TextRun, TextRunContext, TextServiceDeps } from './text-run';

/** What a chat stream handler gets from the host (the same as every text interface). */
export type ChatRunContext = TextRunContext;

export interface ChatServiceOptions extends TextServiceDeps {
  connections: ConnectionsService;
  /** Deferred polling cadence (tests shorten it). */
  deferredPollMs?: number;
}

const CHAT_PATH = '/v1/chat/completions';

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
    const post = { connection, endpoint: 'chat.completions', path: CHAT_PATH, body, headers: input.headers ?? {}, stream: mode === 'stream', validate: validateChatRequest } as const;
    return runTextPost(this.options, ctx, post, async (run, opts) => {
      if (mode === 'stream') {
        const assembler = new ChatAssembler();
        let chunks = 0;
        const counted = { push: (chunk: ChatCompletionChunk) => (chunks++, assembler.push(chunk)), result: () => assembler.result() };
        const handlers = streamIntoRun(run, counted, (chunk) => emitChunk(run, chunk));
        const outcome = await streamChatCompletion(connection.client, body, { ...handlers, onChunk: handlers.onEvent }, opts);
        // Only a usage chunk says what was used; a cut or cancelled stream has none, and that is
        // shown as unknown rather than as zero.
        return run.finishStream(outcome, chunks > 0 ? assembler.result() : null, assembler.usage());
      }
      const result = await createChatCompletion(connection.client, body, opts);
      if (mode === 'plain' || !result.ok) return run.finishPlain(result as ApiResult<ChatCompletion>);
      return this.awaitDeferred(run, connection, result as ApiResult<DeferredCreated> & { ok: true }, ctx);
    });
  }

  /** The request was queued (`{request_id}`): polls until the completion is ready, then records it. */
  private async awaitDeferred(
    run: TextRun,
    connection: ReturnType<ConnectionsService['resolve']>,
    queued: ApiResult<DeferredCreated> & { ok: true },
    ctx: ChatRunContext,
  ): Promise<RunRecord> {
    const requestId = queued.value.request_id;
    run.onOpen(queued.meta);
    run.recorder.update({ deferredRequestId: requestId, response: { status: queued.meta.status, headers: queued.meta.headers, body: queued.value } });
    ctx.emit({ type: 'deferred', requestId, state: 'pending', polls: 0 });
    const outcome = await pollDeferredCompletion(connection.client, requestId, {
      signal: ctx.signal,
      firstDelayMs: this.options.deferredPollMs,
      onPending: (polls) => ctx.emit({ type: 'deferred', requestId, state: 'pending', polls }),
    });
    const ended = { captured: queued.captured, retries: queued.retries, totalMs: this.now() - run.startedAt };
    if (!outcome.ok) return run.finishPlain({ ok: false, error: outcome.error, meta: null, ...ended });
    return run.finishPlain({ ok: true, value: outcome.completion, meta: { status: 200, headers: {}, requestId, ttfbMs: queued.meta.ttfbMs }, ...ended });
  }
}

/** One stream chunk as the renderer sees it: a delta per choice, then its usage if it has one. */
function emitChunk(run: TextRun, chunk: ChatCompletionChunk): void {
  for (const choice of chunk.choices ?? []) {
    const d = choice.delta ?? {};
    run.delta({
      type: 'delta',
      choice: choice.index,
      ...(d.content ? { content: d.content } : {}),
      ...(d.reasoning_content ? { reasoning: d.reasoning_content } : {}),
      ...(d.tool_calls?.length ? { toolCalls: d.tool_calls } : {}),
      ...(choice.logprobs?.content?.length ? { logprobs: choice.logprobs.content } : {}),
      ...(choice.finish_reason ? { finishReason: choice.finish_reason } : {}),
    });
  }
  if (chunk.usage) run.usage(chunk.usage);
}

/** A plain or deferred request: `stream_options` only belongs with `stream: true`. */
function withoutStreamOptions(request: ChatRequest): ChatRequest {
  const { stream_options: _dropped, ...rest } = request;
  return { ...rest, stream: false };
}
