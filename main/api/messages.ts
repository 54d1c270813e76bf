/**
 * The Messages family: `POST /v1/messages`, plain or streamed (Anthropic-style events with
 * `event:` lines). The spec ends every stream with `data: [DONE]`, but the Anthropic format has
 * none: being liberal, a stream ends ok after `[DONE]`, or after `message_stop` followed by a
 * clean end of the body. `error` events are service errors; `ping` and unknown events are passed on.
 */
import type { MessagesRequest, MessagesResponse, MessagesStreamEvent } from '../../shared/wire/messages';
import type { ApiClient, ApiResult, StreamOutcome } from './client';
import { streamTextFrames, type EventStreamHandlers, type TextCallOptions } from './text-stream';
import { isObject } from '../../shared/is-object';

export const MESSAGES_PATH = '/v1/messages';

/** A plain Message (`stream: false`). */
export function createMessage(client: ApiClient, body: MessagesRequest, opts: TextCallOptions = {}): Promise<ApiResult<MessagesResponse>> {
  return client.json<MessagesResponse>({ method: 'POST', path: MESSAGES_PATH, body: { ...body, stream: false }, ...opts });
}

export type MessagesStreamHandlers = EventStreamHandlers<MessagesStreamEvent>;

/** Streams a Message (forces `stream: true`). */
export function streamMessage(
  client: ApiClient,
  body: MessagesRequest,
  handlers: MessagesStreamHandlers,
  opts: TextCallOptions = {},
): Promise<StreamOutcome> {
  return streamTextFrames(client, { method: 'POST', path: MESSAGES_PATH, body: { ...body, stream: true }, ...opts }, handlers, (parsed, raw, atMs) => {
    if (!isObject(parsed)) return { error: { code: null, message: `an event that is not an object: ${raw.data.slice(0, 120)}` } };
    if (parsed.type === 'error' || (parsed.type === undefined && parsed.error !== undefined)) {
      const e = isObject(parsed.error) ? parsed.error : {};
      const code = typeof e.type === 'string' ? e.type : typeof e.code === 'string' ? e.code : null;
      return { error: { code, message: typeof e.message === 'string' ? e.message : 'no details given' } };
    }
    handlers.onEvent(parsed as unknown as MessagesStreamEvent, raw, atMs);
    return parsed.type === 'message_stop' ? 'terminal' : 'continue';
  });
}
