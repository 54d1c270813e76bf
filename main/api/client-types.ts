/**
 * The shapes the client takes and gives: its options, one request's options, the answering
 * response's meta, and the result values (ApiResult, StreamOutcome). Apart from client.ts so the
 * client stays one job; client.ts re-exports all of them.
 */
import type { CapturedRequest } from '../../shared/contract/runs';
import type { ApiError } from './errors';
import type { LimitNotice, ResponseLimits } from './limits';
import type { QueryValue } from './request-url';
import type { RetryPolicy } from './retry';
import type { SseEvent } from './sse';

export interface ApiClientOptions {
  /** e.g. 'http://127.0.0.1:4000' or 'https://api.example.com' (a trailing '/v1' is tolerated). */
  baseUrl: string;
  apiKey: string | null;
  retry?: RetryPolicy;
  /** Time to the response headers; default 60 s. */
  headersTimeoutMs?: number;
  /** Longest silence between body chunks; default 120 s. */
  bodyTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** [0,1) source for retry jitter; tests pin it. */
  random?: () => number;
  /** Waits between retries; must reject or resolve early when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Monotonic ms clock for timings (performance.now-like). */
  now?: () => number;
  userAgent?: string;
  /** Caps on what is read and kept of an answer (limits.ts); DEFAULT_LIMITS where not given. */
  limits?: Partial<ResponseLimits>;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method: HttpMethod;
  /** Full versioned path: '/v1/models'. */
  path: string;
  /** An array repeats the parameter; booleans are sent as `true` / `false`. */
  query?: Record<string, QueryValue>;
  /**
   * Sent as JSON when present, unless it is a StreamBody (see stream-body.ts): then its bytes are
   * streamed, re-opened for each attempt, and the inspector records its description.
   */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
  /**
   * false: sent once, never again (a create that is not idempotent: a POST that timed out may have
   * taken effect, and sending it again makes a second one or a confusing conflict). Default true.
   */
  retry?: boolean;
  /** This request's wait for the answer's headers, when longer than the connection's (a service that answers only when all is made: long speech). */
  headersTimeoutMs?: number;
}

/** The answering response. `ttfbMs` is from the start of the attempt that answered to its headers. */
export interface ResponseMeta {
  status: number;
  headers: Record<string, string>;
  requestId: string | null;
  ttfbMs: number;
}

/**
 * `totalMs` spans every attempt and the waits between them. `notices` (present only when one was
 * hit) are the caps that cut what was read or kept: record them with the run (limits.ts).
 */
export type ApiResult<T> =
  | { ok: true; value: T; meta: ResponseMeta; captured: CapturedRequest; retries: number; totalMs: number; notices?: LimitNotice[] }
  | { ok: false; error: ApiError; meta: ResponseMeta | null; captured: CapturedRequest; retries: number; totalMs: number; notices?: LimitNotice[] };

export interface StreamHandlers {
  onOpen?(meta: ResponseMeta): void;
  /** `atMs` is since the start of the attempt that answered. Return false to stop reading (the stream is closed). */
  onEvent(event: SseEvent, atMs: number): void | boolean;
}

/**
 * Where a raw (non-SSE) 2xx body goes, chunk by chunk. `onChunk` is awaited before the next chunk
 * is read, so a slow sink (a disk) sets the pace and memory stays flat; returning false stops
 * reading (the body is closed). A sink that throws is a bug and is re-thrown.
 */
export interface ByteSink {
  onOpen?(meta: ResponseMeta): void;
  onChunk(chunk: Uint8Array): void | boolean | Promise<void | boolean>;
}

export interface StreamOutcome {
  ok: boolean;
  error: ApiError | null;
  meta: ResponseMeta | null;
  captured: CapturedRequest;
  retries: number;
  totalMs: number;
  /** As on ApiResult: the caps hit (an error body cut, an event over the cap, the event log full). */
  notices?: LimitNotice[];
}

/** What websocket.ts needs to open a socket with this connection's URL and auth. */
export interface WebSocketTarget {
  url: string;
  /** Includes the real key: for the handshake only, never stored. */
  headers: Record<string, string>;
  host: string;
  handshakeTimeoutMs: number;
  captured: CapturedRequest;
}
