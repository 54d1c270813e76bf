/**
 * What every streamed text interface (Responses, Messages, legacy completions) has in common on
 * the wire: SSE frames of JSON ending with `data: [DONE]`. Decides when a stream ended well, turns
 * a non-JSON frame into a `protocol` error, a service error frame into an `http` error, and an
 * end without the terminal marker into `stream_incomplete` (the partial output stays with the
 * caller). Each family says per frame whether it is an error or a terminal event.
 */
import type { ApiClient, RequestOptions, ResponseMeta, StreamOutcome } from './client';
import type { ApiError } from './errors';
import { eventLogNotice } from './limits';
import type { SseEvent } from './sse';

/** Per-call options: cancellation, retry notifications and extra request headers. */
export interface TextCallOptions {
  signal?: AbortSignal;
  onRetry?: RequestOptions['onRetry'];
  headers?: Record<string, string>;
}

/**
 * What a family makes of one parsed frame: keep reading; a terminal event (a clean end of the
 * body then counts as complete even without `[DONE]`); or a service error that stops reading.
 */
export type FrameVerdict = 'continue' | 'terminal' | { error: Pick<ApiError, 'code' | 'message'> };

export interface TextStreamHandlers {
  onOpen?(meta: ResponseMeta): void;
  /**
   * Every event as it arrived, including `[DONE]` and malformed ones (for the inspector), until
   * their data passes the client's `eventLogChars`; later events are only counted (a notice on
   * the outcome says how many).
   */
  onRawEvent?(raw: SseEvent, atMs: number): void;
}

/** Handlers of a family whose frames are typed events. */
export interface EventStreamHandlers<E> extends TextStreamHandlers {
  /** Every parsed event in order (unknown types included, as they came). */
  onEvent(event: E, raw: SseEvent, atMs: number): void;
}

/** Handlers of a family whose frames are data-only chunks. */
export interface ChunkStreamHandlers<C> extends TextStreamHandlers {
  onChunk(chunk: C, raw: SseEvent, atMs: number): void;
}

/** A family's reading of frames: deliver the frame and judge it. */
export type FrameReader = (parsed: unknown, raw: SseEvent, atMs: number) => FrameVerdict;

function incomplete(meta: ResponseMeta | null, cause: string): ApiError {
  return {
    kind: 'stream_incomplete',
    status: meta?.status ?? null,
    code: null,
    message: `The stream ended before it finished (${cause}). The partial output is kept.`,
    requestId: meta?.requestId ?? null,
  };
}

/**
 * Streams `request` (the caller has put `stream: true` in the body). Ends ok after `data: [DONE]`,
 * or after a terminal frame followed by a clean end of the body. A clean end without either, or
 * a connection dropped after the stream opened -> 'stream_incomplete'. A data line that is not
 * JSON -> 'protocol'. A frame the reader calls an error -> 'http' with the service's message.
 */
export async function streamTextFrames(
  client: ApiClient,
  request: RequestOptions,
  handlers: TextStreamHandlers,
  readFrame: FrameReader,
): Promise<StreamOutcome> {
  // Written from the event callback; an object so the compiler does not narrow it to its initial value.
  const state: { done: boolean; terminal: boolean; failure: ApiError | null; meta: ResponseMeta | null } = {
    done: false,
    terminal: false,
    failure: null,
    meta: null,
  };
  const fail = (error: Omit<ApiError, 'status' | 'requestId'>): false => {
    state.failure = { ...error, status: state.meta?.status ?? null, requestId: state.meta?.requestId ?? null };
    return false;
  };
  const logCap = client.responseLimits.eventLogChars;
  const log = { chars: 0, kept: 0, dropped: 0 };
  const keepRaw = (event: SseEvent, atMs: number): void => {
    if (!handlers.onRawEvent) return;
    if (log.dropped === 0 && log.chars + event.data.length <= logCap) {
      log.chars += event.data.length;
      log.kept++;
      handlers.onRawEvent(event, atMs);
    } else log.dropped++;
  };
  const streamed = await client.sse(request, {
    onOpen(m) {
      state.meta = m;
      handlers.onOpen?.(m);
    },
    onEvent(event, atMs) {
      keepRaw(event, atMs);
      const data = event.data.trim();
      if (data === '[DONE]') {
        state.done = true;
        return false;
      }
      if (data === '') return true; // keep-alive
      let parsed: unknown;
      try {
        parsed = JSON.parse(data);
      } catch {
        return fail({ kind: 'protocol', code: null, message: `The service sent a stream event that is not JSON: ${data.slice(0, 120)}`, body: event.data });
      }
      const verdict = readFrame(parsed, event, atMs);
      if (verdict === 'terminal') state.terminal = true;
      else if (verdict !== 'continue') {
        return fail({ kind: 'http', code: verdict.error.code, message: `The service reported an error mid-stream: ${verdict.error.message}`, body: parsed });
      }
      return true;
    },
  });
  const outcome: StreamOutcome =
    log.dropped > 0 ? { ...streamed, notices: [...(streamed.notices ?? []), eventLogNotice(logCap, log.kept, log.dropped)] } : streamed;
  if (state.failure) return { ...outcome, ok: false, error: state.failure };
  if (!outcome.ok) {
    const e = outcome.error;
    if (e && e.kind === 'network' && outcome.meta) {
      return { ...outcome, error: { ...incomplete(outcome.meta, `connection lost: ${e.message}`), code: e.code } };
    }
    return outcome;
  }
  if (!state.done && !state.terminal) return { ...outcome, ok: false, error: incomplete(outcome.meta, 'no [DONE] marker arrived') };
  return outcome;
}
