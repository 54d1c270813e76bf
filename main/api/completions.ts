/**
 * The legacy families: `POST /v1/completions` (plain or streamed; data-only chunks ending with
 * `data: [DONE]`, an optional usage chunk with `choices: []` before it) and `POST /v1/complete`
 * (plain only: the service does not stream it, so the body is sent as given and the service's
 * answer to `stream: true` is what the caller records).
 */
import type { CompleteRequest, CompleteResponse, CompletionsRequest, TextCompletion, TextCompletionChunk } from '../../shared/wire/completions';
import type { ApiClient, ApiResult, StreamOutcome } from './client';
import { streamTextFrames, type ChunkStreamHandlers, type TextCallOptions } from './text-stream';
import { isObject } from '../../shared/is-object';

export const COMPLETIONS_PATH = '/v1/completions';
export const COMPLETE_PATH = '/v1/complete';

/** A plain text completion; `stream_options` only belongs with a stream, so it is dropped. */
export function createCompletion(client: ApiClient, body: CompletionsRequest, opts: TextCallOptions = {}): Promise<ApiResult<TextCompletion>> {
  const { stream_options: _dropped, ...plain } = body;
  return client.json<TextCompletion>({ method: 'POST', path: COMPLETIONS_PATH, body: { ...plain, stream: false }, ...opts });
}

export type CompletionsStreamHandlers = ChunkStreamHandlers<TextCompletionChunk>;

/** Streams a text completion (forces `stream: true`); ends ok only after `data: [DONE]`. */
export function streamCompletion(
  client: ApiClient,
  body: CompletionsRequest,
  handlers: CompletionsStreamHandlers,
  opts: TextCallOptions = {},
): Promise<StreamOutcome> {
  return streamTextFrames(client, { method: 'POST', path: COMPLETIONS_PATH, body: { ...body, stream: true }, ...opts }, handlers, (parsed, raw, atMs) => {
    if (!isObject(parsed)) return { error: { code: null, message: `a chunk that is not an object: ${raw.data.slice(0, 120)}` } };
    if (!('choices' in parsed) && parsed.error !== undefined) {
      const e = isObject(parsed.error) ? parsed.error : { message: parsed.error, code: parsed.code };
      return {
        error: {
          code: typeof e.code === 'string' ? e.code : typeof e.type === 'string' ? e.type : null,
          message: typeof e.message === 'string' ? e.message : 'no details given',
        },
      };
    }
    handlers.onChunk(parsed as unknown as TextCompletionChunk, raw, atMs);
    return 'continue';
  });
}

/** `POST /v1/complete`, sent as given (including a `stream` flag the service will refuse). */
export function createComplete(client: ApiClient, body: CompleteRequest, opts: TextCallOptions = {}): Promise<ApiResult<CompleteResponse>> {
  return client.json<CompleteResponse>({ method: 'POST', path: COMPLETE_PATH, body, ...opts });
}
