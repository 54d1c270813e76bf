/**
 * The one HTTP client for the service: owns the undici dispatcher, base URL, auth, timeouts and
 * retries, and records every request (secrets redacted) for the inspector. Never throws for a
 * failed request: results are values (ApiResult / StreamOutcome) carrying an ApiError.
 */
import { Agent, type Dispatcher } from 'undici';
import type { CapturedRequest } from '../../shared/contract/runs';
import { apiErrorFromResponse, cancelledError, requestIdFromHeaders, type ApiError } from './errors';
import { headersToRecord, redactHeaders, scrubSecret } from './http-headers';
import { apiErrorFromThrown, isRetryableThrown, type FailurePhase } from './network-errors';
import { resolveUrl, type ResolvedUrl } from './request-url';
import { DEFAULT_RETRY, isRetryableStatus, retryDelayMs, type RetryPolicy } from './retry';
import { SseParser, type SseEvent } from './sse';

export type { CapturedRequest } from '../../shared/contract/runs';

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
}

export interface RequestOptions {
  method: 'GET' | 'POST' | 'DELETE';
  /** Full versioned path: '/v1/models'. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** Sent as JSON when present. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
}

/** The answering response. `ttfbMs` is from the start of the attempt that answered to its headers. */
export interface ResponseMeta {
  status: number;
  headers: Record<string, string>;
  requestId: string | null;
  ttfbMs: number;
}

/** `totalMs` spans every attempt and the waits between them. */
export type ApiResult<T> =
  | { ok: true; value: T; meta: ResponseMeta; captured: CapturedRequest; retries: number; totalMs: number }
  | { ok: false; error: ApiError; meta: ResponseMeta | null; captured: CapturedRequest; retries: number; totalMs: number };

export interface StreamHandlers {
  onOpen?(meta: ResponseMeta): void;
  /** `atMs` is since the start of the attempt that answered. Return false to stop reading (the stream is closed). */
  onEvent(event: SseEvent, atMs: number): void | boolean;
}

export interface StreamOutcome {
  ok: boolean;
  error: ApiError | null;
  meta: ResponseMeta | null;
  captured: CapturedRequest;
  retries: number;
  totalMs: number;
}

type Sent =
  | { ok: true; res: Dispatcher.ResponseData; meta: ResponseMeta; attemptStart: number; retries: number }
  | { ok: false; error: ApiError; meta: ResponseMeta | null; retries: number };

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** HTTP client for one connection (base URL + key). dispose() when the connection goes away. */
export class ApiClient {
  private readonly agent: Agent;
  private readonly retry: RetryPolicy;
  private readonly headersTimeoutMs: number;
  private readonly bodyTimeoutMs: number;
  private readonly connectTimeoutMs: number;
  private readonly random: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly now: () => number;
  private readonly host: string;

  constructor(private readonly options: ApiClientOptions) {
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.headersTimeoutMs = options.headersTimeoutMs ?? 60_000;
    this.bodyTimeoutMs = options.bodyTimeoutMs ?? 120_000;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? defaultSleep;
    this.now = options.now ?? (() => performance.now());
    this.host = new URL(options.baseUrl).host;
    this.agent = new Agent({
      connect: { timeout: this.connectTimeoutMs },
      headersTimeout: this.headersTimeoutMs,
      bodyTimeout: this.bodyTimeoutMs,
    });
  }

  /** A JSON request. Non-2xx -> ok:false with the error body kept; any 2xx (incl. 202) is ok, empty body -> null. */
  async json<T>(options: RequestOptions): Promise<ApiResult<T>> {
    const started = this.now();
    const { url, headers, payload, captured } = this.prepare(options, 'application/json');
    const sent = await this.send(options, url, headers, payload);
    const totalMs = (): number => this.now() - started;
    if (!sent.ok) return { ok: false, error: sent.error, meta: sent.meta, captured, retries: sent.retries, totalMs: totalMs() };
    const { meta, retries } = sent;
    let text: string;
    try {
      text = await sent.res.body.text();
    } catch (e) {
      const error = this.thrown(e, options.signal, 'body', meta.requestId);
      return { ok: false, error, meta, captured, retries, totalMs: totalMs() };
    }
    if (text.trim() === '') return { ok: true, value: null as T, meta, captured, retries, totalMs: totalMs() };
    const parsed = parseJson(text);
    if (!parsed.ok) {
      const error: ApiError = {
        kind: 'protocol',
        status: meta.status,
        code: null,
        message: `${this.host} answered with something that is not JSON: ${text.slice(0, 120)}`,
        requestId: meta.requestId,
        body: text,
      };
      return { ok: false, error, meta, captured, retries, totalMs: totalMs() };
    }
    return { ok: true, value: parsed.value as T, meta, captured, retries, totalMs: totalMs() };
  }

  /**
   * A streaming request: SSE events go to `handlers` as they arrive. Retries happen only before
   * onOpen. Knows nothing of `[DONE]`: a clean end of the body is ok:true; the family module
   * decides whether the stream was complete.
   */
  async sse(options: RequestOptions, handlers: StreamHandlers): Promise<StreamOutcome> {
    const started = this.now();
    const { url, headers, payload, captured } = this.prepare(options, 'text/event-stream');
    const sent = await this.send(options, url, headers, payload);
    const finish = (error: ApiError | null, meta: ResponseMeta | null, retries: number): StreamOutcome => ({
      ok: error === null,
      error,
      meta,
      captured,
      retries,
      totalMs: this.now() - started,
    });
    if (!sent.ok) return finish(sent.error, sent.meta, sent.retries);
    const { res, meta, attemptStart, retries } = sent;
    const contentType = meta.headers['content-type'] ?? '';
    if (contentType.includes('application/json')) {
      const text = await res.body.text().catch(() => '');
      const parsed = parseJson(text);
      const error: ApiError = {
        kind: 'protocol',
        status: meta.status,
        code: null,
        message: `${this.host} answered with JSON instead of an event stream.`,
        requestId: meta.requestId,
        body: parsed.ok ? parsed.value : text,
      };
      return finish(error, meta, retries);
    }
    handlers.onOpen?.(meta);
    const parser = new SseParser();
    let handlerFailure: { error: unknown } | null = null;
    const deliver = (events: SseEvent[]): boolean => {
      for (const event of events) {
        try {
          if (handlers.onEvent(event, this.now() - attemptStart) === false) return false;
        } catch (e) {
          handlerFailure = { error: e };
          throw e;
        }
      }
      return true;
    };
    try {
      let stopped = false;
      for await (const chunk of res.body) {
        if (!deliver(parser.push(chunk as Uint8Array))) {
          stopped = true;
          break;
        }
      }
      if (!stopped) deliver(parser.end());
      return finish(null, meta, retries);
    } catch (e) {
      res.body.destroy();
      if (handlerFailure) throw (handlerFailure as { error: unknown }).error;
      return finish(this.thrown(e, options.signal, 'body', meta.requestId), meta, retries);
    }
  }

  /** Closes the connection pool; in-flight requests fail with a network error. */
  /**
   * The request as it will be sent and recorded (URL resolved, secrets redacted), without sending
   * it: callers record a run before the first byte leaves.
   */
  describe(options: RequestOptions, stream = false): CapturedRequest {
    return this.prepare(options, stream ? 'text/event-stream' : 'application/json').captured;
  }

  async dispose(): Promise<void> {
    if (!this.agent.destroyed) await this.agent.destroy();
  }

  private prepare(
    options: RequestOptions,
    accept: string,
  ): { url: ResolvedUrl; headers: Record<string, string>; payload: string | undefined; captured: CapturedRequest } {
    const url = resolveUrl(this.options.baseUrl, options.path, options.query);
    const headers: Record<string, string> = { accept };
    headers['user-agent'] = this.options.userAgent ?? 'InferenceWorkbench/0.1';
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    if (payload !== undefined) headers['content-type'] = 'application/json';
    for (const [k, v] of Object.entries(options.headers ?? {})) headers[k.toLowerCase()] = v;
    if (this.options.apiKey && headers.authorization === undefined) headers.authorization = `Bearer ${this.options.apiKey}`;
    const captured: CapturedRequest = {
      method: options.method,
      url: url.url,
      headers: redactHeaders(headers),
      body: scrubSecret(options.body ?? null, this.options.apiKey),
    };
    return { url, headers, payload, captured };
  }

  /** Sends with retries until a 2xx, a final error, or cancellation. Error bodies are read here. */
  private async send(
    options: RequestOptions,
    url: ResolvedUrl,
    headers: Record<string, string>,
    payload: string | undefined,
  ): Promise<Sent> {
    const { signal } = options;
    let retries = 0;
    for (;;) {
      if (signal?.aborted) return { ok: false, error: cancelledError(), meta: null, retries };
      const attemptStart = this.now();
      let res: Dispatcher.ResponseData;
      try {
        res = await this.agent.request({ origin: url.origin, path: url.path, method: options.method, headers, body: payload, signal });
      } catch (e) {
        const error = this.thrown(e, signal, 'connect', null);
        if (error.kind !== 'cancelled' && isRetryableThrown(e)) {
          const waited = await this.waitForRetry(retries + 1, null, error, options);
          if (waited === 'retry') {
            retries++;
            continue;
          }
          if (waited === 'cancelled') return { ok: false, error: cancelledError(), meta: null, retries };
        }
        return { ok: false, error, meta: null, retries };
      }
      const resHeaders = headersToRecord(res.headers);
      const meta: ResponseMeta = {
        status: res.statusCode,
        headers: resHeaders,
        requestId: requestIdFromHeaders(resHeaders),
        ttfbMs: this.now() - attemptStart,
      };
      if (res.statusCode >= 200 && res.statusCode < 300) return { ok: true, res, meta, attemptStart, retries };
      const text = await res.body.text().catch(() => '');
      const parsed = parseJson(text);
      const body = scrubSecret(parsed.ok ? parsed.value : text, this.options.apiKey);
      const error = apiErrorFromResponse(res.statusCode, resHeaders, body);
      error.message = scrubSecret(error.message, this.options.apiKey);
      if (isRetryableStatus(res.statusCode)) {
        const waited = await this.waitForRetry(retries + 1, resHeaders, error, options);
        if (waited === 'retry') {
          retries++;
          continue;
        }
        if (waited === 'cancelled') return { ok: false, error: cancelledError(meta.requestId), meta, retries };
      }
      return { ok: false, error, meta, retries };
    }
  }

  private async waitForRetry(
    attempt: number,
    headers: Record<string, string> | null,
    error: ApiError,
    options: RequestOptions,
  ): Promise<'retry' | 'give_up' | 'cancelled'> {
    const delayMs = retryDelayMs(attempt, this.retry, headers, this.random, Date.now());
    if (delayMs === null) return 'give_up';
    options.onRetry?.({ attempt, delayMs, reason: error.message });
    try {
      await this.sleep(delayMs, options.signal);
    } catch {
      // a sleep that rejects on abort is fine: the signal check below decides
    }
    return options.signal?.aborted ? 'cancelled' : 'retry';
  }

  private thrown(e: unknown, signal: AbortSignal | undefined, phase: FailurePhase, requestId: string | null): ApiError {
    if (signal?.aborted) return cancelledError(requestId);
    const error = apiErrorFromThrown(e, {
      host: this.host,
      phase,
      headersTimeoutMs: this.headersTimeoutMs,
      bodyTimeoutMs: this.bodyTimeoutMs,
      connectTimeoutMs: this.connectTimeoutMs,
      requestId,
    });
    error.message = scrubSecret(error.message, this.options.apiKey);
    return error;
  }
}
