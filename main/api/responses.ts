/**
 * The Responses family: `POST /v1/responses` (plain and streamed), `GET` / `DELETE
 * /v1/responses/{id}` and `POST /v1/responses/compact`. A stream ends ok after `data: [DONE]`;
 * `error` frames and `response.failed` are service errors; unknown event types are delivered to
 * the caller (who keeps them raw) and never stop the stream.
 */
import type { Compaction, CompactRequest, DeletedResponse, ResponseCreateRequest, ResponseObject, ResponseStreamEvent } from '../../shared/wire/responses';
import type { ApiClient, ApiResult, StreamOutcome } from './client';
import { streamTextFrames, type EventStreamHandlers, type FrameVerdict, type TextCallOptions } from './text-stream';
import { isObject } from '../../shared/is-object';

export const RESPONSES_PATH = '/v1/responses';
export const COMPACT_PATH = '/v1/responses/compact';

/** The path of one stored response. */
export function responsePath(id: string): string {
  return `${RESPONSES_PATH}/${encodeURIComponent(id)}`;
}

/** A plain create: the body is sent with `stream: false` so a JSON Response comes back. */
export function createResponse(client: ApiClient, body: ResponseCreateRequest, opts: TextCallOptions = {}): Promise<ApiResult<ResponseObject>> {
  return client.json<ResponseObject>({ method: 'POST', path: RESPONSES_PATH, body: { ...body, stream: false }, ...opts });
}

export type ResponsesStreamHandlers = EventStreamHandlers<ResponseStreamEvent>;

/** Streams a create (forces `stream: true`); see the module header for what ends it. */
export function streamResponse(
  client: ApiClient,
  body: ResponseCreateRequest,
  handlers: ResponsesStreamHandlers,
  opts: TextCallOptions = {},
): Promise<StreamOutcome> {
  return streamTextFrames(client, { method: 'POST', path: RESPONSES_PATH, body: { ...body, stream: true }, ...opts }, handlers, (parsed, raw, atMs) => {
    if (!isObject(parsed)) return { error: { code: null, message: `an event that is not an object: ${raw.data.slice(0, 120)}` } };
    const verdict = responsesVerdict(parsed);
    // A failed response still carries what was produced: deliver it before failing.
    if (parsed.type !== 'error') handlers.onEvent(parsed as unknown as ResponseStreamEvent, raw, atMs);
    return verdict;
  });
}

function responsesVerdict(event: Record<string, unknown>): FrameVerdict {
  if (event.type === 'error') {
    const inner = isObject(event.error) ? event.error : event;
    return { error: { code: strOrNull(inner.code), message: strOrNull(inner.message) ?? 'no details given' } };
  }
  if (event.type === 'response.failed') {
    const response = isObject(event.response) ? event.response : {};
    const error = isObject(response.error) ? response.error : {};
    return { error: { code: strOrNull(error.code), message: `the response failed: ${strOrNull(error.message) ?? 'no details given'}` } };
  }
  // An OpenAI-style `{"error": {...}}` frame without a type.
  if (event.type === undefined && isObject(event.error)) {
    return { error: { code: strOrNull(event.error.code), message: strOrNull(event.error.message) ?? 'no details given' } };
  }
  return 'continue';
}

function strOrNull(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** `GET /v1/responses/{id}`. */
export function retrieveResponse(client: ApiClient, id: string, opts: TextCallOptions = {}): Promise<ApiResult<ResponseObject>> {
  return client.json<ResponseObject>({ method: 'GET', path: responsePath(id), ...opts });
}

/** `DELETE /v1/responses/{id}`. */
export function deleteResponse(client: ApiClient, id: string, opts: TextCallOptions = {}): Promise<ApiResult<DeletedResponse>> {
  return client.json<DeletedResponse>({ method: 'DELETE', path: responsePath(id), ...opts });
}

/** `POST /v1/responses/compact`. */
export function compactResponses(client: ApiClient, body: CompactRequest, opts: TextCallOptions = {}): Promise<ApiResult<Compaction>> {
  return client.json<Compaction>({ method: 'POST', path: COMPACT_PATH, body, ...opts });
}
