/**
 * Runs chat completions — streamed, plain or deferred — and records every run, whatever happens,
 * through the same TextRun the other text interfaces use: the request before it leaves, the
 * events as they arrive (checkpointed), and the end state (completed / cancelled / incomplete /
 * error) with the partial output kept. A deferred run is a durable job (deferred-chat-job.ts)
 * that this service starts and follows: it outlives the window that asked for it.
 */
import { ChatAssembler } from '../../api/chat-assembler';
import { createChatCompletion, streamChatCompletion } from '../../api/chat';
import type { ApiResult } from '../../api/client';
import type { ChatSendInput } from '../../../shared/families/chat/contract';
import type { RunRecord } from '../../../shared/contract/runs';
import { validateChatRequest } from '../../../shared/validate/chat';
import type { ChatCompletion, ChatCompletionChunk, ChatRequest } from '../../../shared/wire/chat';
import type { JobQueue } from '../../jobs/job-queue';
import type { ConnectionsService } from '../../services/connections-service';
import { runTextPost, streamIntoRun } from '../../services/text-post';
import { followDeferredChat, startDeferredChat, type DeferredChatDeps } from './deferred-chat-follow';
import type { TextRun, TextRunContext, TextServiceDeps } from '../../services/text-run';

/** What a chat stream handler gets from the host (the same as every text interface). */
export type ChatRunContext = TextRunContext;

export interface ChatServiceOptions extends TextServiceDeps {
  connections: ConnectionsService;
  /** The durable queue deferred runs go on (its `deferred-chat` kind is defined by the app). */
  jobs: JobQueue;
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
    const headers = input.headers ?? {};
    // A deferred run is a durable job: it outlives this window (a refused one is recorded below).
    if (mode === 'deferred' && validateChatRequest(body).length === 0) {
      return startDeferredChat(this.deferredDeps(), { connection, path: CHAT_PATH, body, headers, group: input.group }, ctx);
    }
    const post = {
      connection,
      endpoint: 'chat.completions',
      path: CHAT_PATH,
      body,
      headers,
      stream: mode === 'stream',
      validate: validateChatRequest,
      group: input.group,
    } as const;
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
      return run.finishPlain((await createChatCompletion(connection.client, body, opts)) as ApiResult<ChatCompletion>);
    });
  }

  /**
   * Follows the deferred run `runId` (a chat view reloaded while it was pending): its progress as
   * chunks, then the recorded run. A run no job carries any more comes back as recorded.
   */
  follow(input: { runId: string }, ctx: ChatRunContext): Promise<RunRecord> {
    return followDeferredChat(this.deferredDeps(), input.runId, ctx);
  }

  private deferredDeps(): DeferredChatDeps {
    return { db: this.options.db, jobs: this.options.jobs, now: this.now, blobs: this.options.blobs };
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
