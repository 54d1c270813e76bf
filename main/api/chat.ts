/**
 * The chat family: `POST /v1/chat/completions` (plain, deferred and streamed) and
 * `GET /v1/chat/deferred-completion/{id}`. Decides what ends a chat stream: `data: [DONE]`.
 */
import type { ChatCompletion, ChatCompletionChunk, ChatRequest, DeferredCreated } from '../../shared/wire/chat';
import { parseErrorBody } from '../../shared/wire/errors';
import type { ApiClient, ApiResult, RequestOptions, StreamOutcome } from './client';
import type { ApiError } from './errors';
import { streamTextFrames, type ChunkStreamHandlers } from './text-stream';

const PATH = '/v1/chat/completions';

/** Per-call options: cancellation, retry notifications and extra request headers (routing keys, test faults). */
export interface ChatCallOptions {
  signal?: AbortSignal;
  onRetry?: RequestOptions['onRetry'];
  headers?: Record<string, string>;
}

/** Non-streamed completion; with `deferred: true` the answer is `{request_id}` instead. */
export function createChatCompletion(
  client: ApiClient,
  body: ChatRequest,
  opts: ChatCallOptions = {},
): Promise<ApiResult<ChatCompletion | DeferredCreated>> {
  // A stream flag here would get an event stream back where JSON is expected.
  const { stream: _stream, stream_options: _streamOptions, ...plain } = body;
  return client.json<ChatCompletion | DeferredCreated>({ method: 'POST', path: PATH, body: plain, ...opts });
}

export type ChatStreamHandlers = ChunkStreamHandlers<ChatCompletionChunk>;

/**
 * Streams a completion (forces `stream: true`). Ends ok only after `data: [DONE]`. A clean end
 * without it, or a connection dropped after the stream opened, -> 'stream_incomplete'. A data
 * line that is not JSON -> 'protocol' (reading stops; earlier chunks were delivered). An
 * `{"error": ...}` frame mid-stream -> 'http' with the service's message. (text-stream.ts)
 */
export function streamChatCompletion(
  client: ApiClient,
  body: ChatRequest,
  handlers: ChatStreamHandlers,
  opts: ChatCallOptions = {},
): Promise<StreamOutcome> {
  return streamTextFrames(client, { method: 'POST', path: PATH, body: { ...body, stream: true }, ...opts }, handlers, (parsed, raw, atMs) => {
    const serviceError = chunkError(parsed);
    if (serviceError) return { error: serviceError };
    handlers.onChunk(parsed as ChatCompletionChunk, raw, atMs);
    return 'continue';
  });
}

/** An error object sent as a stream frame (OpenAI does this), or null for an ordinary chunk. */
function chunkError(parsed: unknown): Pick<ApiError, 'code' | 'message'> | null {
  if (!parsed || typeof parsed !== 'object' || 'choices' in parsed) return null;
  const e = parseErrorBody(parsed);
  return e ? { code: e.code, message: e.message } : null;
}

/** Polls a deferred completion: HTTP 202 -> pending, 200 -> done with the completion. */
export async function getDeferredCompletion(
  client: ApiClient,
  requestId: string,
  opts: { signal?: AbortSignal } = {},
): Promise<ApiResult<{ state: 'pending' } | { state: 'done'; completion: ChatCompletion }>> {
  const result = await client.json<ChatCompletion>({
    method: 'GET',
    path: `/v1/chat/deferred-completion/${encodeURIComponent(requestId)}`,
    signal: opts.signal,
  });
  if (!result.ok) return result;
  if (result.meta.status === 202) return { ...result, value: { state: 'pending' } };
  return { ...result, value: { state: 'done', completion: result.value } };
}
