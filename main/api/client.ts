/**
 * The one HTTP client for the service: owns the undici dispatcher, base URL, auth, timeouts and
 * retries, and records every request (secrets redacted) for the inspector. Everything it returns
 * passes the connection's SecretScrubber, so a key the service echoes is never recorded or shown
 * (jsonWithUnscrubbed() also hands back the answer as sent, only to fetch the URLs in it).
 * Never throws for a failed request: results are values (ApiResult / StreamOutcome) carrying an ApiError.
 */
import type { Readable } from 'node:stream';
import { Agent, type Dispatcher } from 'undici';
import type { CapturedRequest } from '../../shared/contract/runs';
import { decodeBody } from './body-decode';
import { noticesOf, parseJson, readBoundedText } from './body-read';
import { cancelledError, requestIdFromHeaders, type ApiError } from './errors';
import { errorFromResponse, limitedBodyError, protocolError, readErrorBody } from './error-body';
import { headersToRecord, redactHeaders } from './http-headers';
import { apiErrorFromThrown, isRetryableThrown, type FailurePhase } from './network-errors';
import { DEFAULT_LIMITS, errorBodyNotice, jsonBodyNotice, type LimitNotice, type ResponseLimits } from './limits';
import { identityHeaders, prepareRequest, type Payload } from './request-prepare';
import { resolveUrl, type ResolvedUrl } from './request-url';
import { SecretScrubber } from './secret-scrubber';
import { DEFAULT_RETRY, isRetryableStatus, retryDelayMs, type RetryPolicy } from './retry';
import { sleep } from './sleep';
import { SseParser, type SseEvent } from './sse';
import { openAttempt, streamBodyError } from './stream-body';
import type { ApiClientOptions, ApiResult, ByteSink, RequestOptions, ResponseMeta, StreamHandlers, StreamOutcome, WebSocketTarget } from './client-types';

export type { CapturedRequest } from '../../shared/contract/runs';
export type * from './client-types';

type Sent =
  | { ok: true; res: Dispatcher.ResponseData; meta: ResponseMeta; attemptStart: number; retries: number }
  | { ok: false; error: ApiError; meta: ResponseMeta | null; retries: number; notices?: LimitNotice[] };

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
  /**
   * Masks this connection's key in every form: whatever the client returns (bodies, headers,
   * errors, each SSE event, the captured request) has passed it. Services use it for what they
   * assemble from several events (text deltas).
   */
  readonly scrubber: SecretScrubber;
  private readonly limits: ResponseLimits;

  constructor(private readonly options: ApiClientOptions) {
    this.scrubber = new SecretScrubber([options.apiKey]);
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.headersTimeoutMs = options.headersTimeoutMs ?? 60_000;
    this.bodyTimeoutMs = options.bodyTimeoutMs ?? 120_000;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? sleep;
    this.now = options.now ?? (() => performance.now());
    this.host = new URL(options.baseUrl).host;
    this.agent = new Agent({
      connect: { timeout: this.connectTimeoutMs },
      headersTimeout: this.headersTimeoutMs,
      bodyTimeout: this.bodyTimeoutMs,
    });
  }

  /** A scrubber for this connection's key and `more` secrets (a realtime client secret of one socket). */
  scrubberWith(more: ReadonlyArray<string>): SecretScrubber {
    return more.length === 0 ? this.scrubber : new SecretScrubber([this.options.apiKey, ...more]);
  }

  /** The caps this client reads answers with (limits.ts). */
  get responseLimits(): Readonly<ResponseLimits> {
    return this.limits;
  }

  /**
   * A JSON request. Non-2xx -> ok:false with the error body kept (its first `errorBodyBytes`); any
   * 2xx (incl. 202) is ok, empty body -> null. A 2xx body over `jsonBodyBytes` is not parsed: a
   * `protocol` error keeping its head, with a notice.
   */
  async json<T>(options: RequestOptions): Promise<ApiResult<T>> {
    return this.scrubber.value(await this.readJson<T>(options));
  }

  /**
   * As json(), with the 2xx answer also as the service sent it (`unscrubbed`), for what the app
   * must fetch exactly as given: a result URL that happens to hold key-looking text is fetched at
   * that URL, not at its masked copy. `unscrubbed` is never recorded, shown or logged; `result`
   * is scrubbed as json()'s is.
   */
  async jsonWithUnscrubbed<T>(options: RequestOptions): Promise<{ result: ApiResult<T>; unscrubbed: T | null }> {
    const read = await this.readJson<T>(options);
    // value() copies what it masks, so `read.value` stays as the service sent it.
    return { result: this.scrubber.value(read), unscrubbed: read.ok ? read.value : null };
  }

  private async readJson<T>(options: RequestOptions): Promise<ApiResult<T>> {
    const started = this.now();
    const { url, headers, payload, captured } = prepareRequest(this.options, options, 'application/json', this.scrubber);
    const sent = await this.send(options, url, headers, payload);
    const totalMs = (): number => this.now() - started;
    if (!sent.ok) return { ok: false, error: sent.error, meta: sent.meta, captured, retries: sent.retries, totalMs: totalMs(), ...noticesOf(sent.notices) };
    const { meta, retries } = sent;
    const fail = (error: ApiError, notices?: LimitNotice[]): ApiResult<T> => ({ ok: false, error, meta, captured, retries, totalMs: totalMs(), ...noticesOf(notices) });
    let text: string;
    try {
      const read = await readBoundedText(sent.res.body, meta.headers, this.limits.jsonBodyBytes, this.limits);
      if (read.truncated) {
        const notice = jsonBodyNotice(read.totalBytes, this.limits.jsonBodyBytes, this.limits.errorBodyBytes);
        return fail(protocolError(this.scrubber, meta, notice.message, read.text.slice(0, this.limits.errorBodyBytes)), [notice]);
      }
      text = read.text;
    } catch (e) {
      const limited = limitedBodyError(this.scrubber, e, meta);
      if (limited) return fail(limited.error, limited.notices);
      return fail(this.errorFromThrown(e, options.signal, 'body', meta.requestId));
    }
    if (text.trim() === '') return { ok: true, value: null as T, meta, captured, retries, totalMs: totalMs() };
    const parsed = parseJson(text);
    if (!parsed.ok) return fail(protocolError(this.scrubber, meta, `${this.host} answered with something that is not JSON: ${text.slice(0, 120)}`, text));
    return { ok: true, value: parsed.value as T, meta, captured, retries, totalMs: totalMs() };
  }

  /** Sends a request whose body is read as it arrives; `finish` makes its outcome (timed from here). */
  private async openBody(options: RequestOptions, accept: string): Promise<{ sent: Sent; finish: (error: ApiError | null, meta: ResponseMeta | null, retries: number, notices?: LimitNotice[]) => StreamOutcome }> {
    const started = this.now();
    const { url, headers, payload, captured } = prepareRequest(this.options, options, accept, this.scrubber);
    const sent = await this.send(options, url, headers, payload);
    const finish = (error: ApiError | null, meta: ResponseMeta | null, retries: number, notices?: LimitNotice[]): StreamOutcome => ({
      ok: error === null,
      error,
      meta,
      captured,
      retries,
      totalMs: this.now() - started,
      ...noticesOf(notices),
    });
    return { sent, finish };
  }

  /**
   * A streaming request: SSE events go to `handlers` as they arrive. Retries happen only before
   * onOpen. Knows nothing of `[DONE]`: a clean end of the body is ok:true; the family module
   * decides whether the stream was complete.
   */
  async sse(options: RequestOptions, handlers: StreamHandlers): Promise<StreamOutcome> {
    const scrubbed: StreamHandlers = {
      onOpen: (meta) => handlers.onOpen?.(this.scrubber.value(meta)),
      onEvent: (event, atMs) => handlers.onEvent(this.scrubber.event(event), atMs),
    };
    return this.scrubber.value(await this.readSse(options, scrubbed));
  }

  private async readSse(options: RequestOptions, handlers: StreamHandlers): Promise<StreamOutcome> {
    const { sent, finish } = await this.openBody(options, 'text/event-stream');
    if (!sent.ok) return finish(sent.error, sent.meta, sent.retries, sent.notices);
    const { res, meta, attemptStart, retries } = sent;
    const contentType = meta.headers['content-type'] ?? '';
    if (contentType.includes('application/json')) {
      const read = await readBoundedText(res.body, meta.headers, this.limits.errorBodyBytes, this.limits).catch(() => null);
      const text = read?.text ?? '';
      const parsed = parseJson(text);
      const notices = read?.truncated ? [errorBodyNotice(read.totalBytes, this.limits.errorBodyBytes)] : undefined;
      return finish(protocolError(this.scrubber, meta, `${this.host} answered with JSON instead of an event stream.`, parsed.ok ? parsed.value : text), meta, retries, notices);
    }
    let body: ReturnType<typeof decodeBody>;
    try {
      body = decodeBody(res.body, meta.headers['content-encoding'], this.limits);
    } catch (e) {
      return finish(limitedBodyError(this.scrubber, e, meta)?.error ?? protocolError(this.scrubber, meta, String(e)), meta, retries);
    }
    handlers.onOpen?.(meta);
    const parser = new SseParser(this.limits.sseEventChars);
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
      for await (const chunk of body.chunks) {
        if (!deliver(parser.push(chunk))) {
          stopped = true;
          break;
        }
      }
      if (!stopped) deliver(parser.end());
      return finish(null, meta, retries);
    } catch (e) {
      if (handlerFailure) throw (handlerFailure as { error: unknown }).error;
      const limited = limitedBodyError(this.scrubber, e, meta);
      if (limited) return finish(limited.error, meta, retries, limited.notices);
      return finish(this.errorFromThrown(e, options.signal, 'body', meta.requestId), meta, retries);
    } finally {
      body.close();
    }
  }

  /**
   * A request whose 2xx body is raw bytes (a download): each chunk goes to `sink.onChunk`, which is
   * awaited, so the sink sets the pace. Retries happen only before onOpen. A clean end is ok:true;
   * the caller checks the length it expected.
   */
  async bytes(options: RequestOptions, sink: ByteSink): Promise<StreamOutcome> {
    const scrubbed: ByteSink = { onOpen: (meta) => sink.onOpen?.(this.scrubber.value(meta)), onChunk: (chunk) => sink.onChunk(chunk) };
    return this.scrubber.value(await this.readBytes(options, scrubbed));
  }

  private async readBytes(options: RequestOptions, sink: ByteSink): Promise<StreamOutcome> {
    const { sent, finish } = await this.openBody(options, '*/*');
    if (!sent.ok) return finish(sent.error, sent.meta, sent.retries);
    const { res, meta, retries } = sent;
    sink.onOpen?.(meta);
    let sinkFailure: { error: unknown } | null = null;
    try {
      for await (const chunk of res.body) {
        let more: void | boolean;
        try {
          more = await sink.onChunk(chunk as Uint8Array);
        } catch (e) {
          sinkFailure = { error: e };
          throw e;
        }
        if (more === false) break;
      }
      return finish(null, meta, retries);
    } catch (e) {
      res.body.destroy();
      if (sinkFailure) throw (sinkFailure as { error: unknown }).error;
      return finish(this.errorFromThrown(e, options.signal, 'body', meta.requestId), meta, retries);
    }
  }

  /**
   * The request as it will be sent and recorded (URL resolved, secrets redacted), without sending
   * it: callers record a run before the first byte leaves.
   */
  describe(options: RequestOptions, stream = false): CapturedRequest {
    return prepareRequest(this.options, options, stream ? 'text/event-stream' : 'application/json', this.scrubber).captured;
  }

  /**
   * Where and how to open a WebSocket on this connection (websocket.ts): the base URL mapped to
   * ws/wss, the key as `Authorization: Bearer`, the handshake timeout, and what the inspector keeps.
   */
  webSocketTarget(path: string, query?: RequestOptions['query']): WebSocketTarget {
    const url = resolveUrl(this.options.baseUrl, path, query);
    const wsUrl = url.url.replace(/^http/, 'ws');
    const headers = identityHeaders(this.options);
    return {
      url: wsUrl,
      headers,
      host: this.host,
      handshakeTimeoutMs: this.connectTimeoutMs,
      captured: { method: 'GET', url: wsUrl, headers: redactHeaders(headers), body: null },
    };
  }

  /** Closes the connection pool; in-flight requests fail with a network error. */
  async dispose(): Promise<void> {
    if (!this.agent.destroyed) await this.agent.destroy();
  }

  /** Sends with retries until a 2xx, a final error, or cancellation. Error bodies are read here. */
  private async send(
    options: RequestOptions,
    url: ResolvedUrl,
    headers: Record<string, string>,
    payload: Payload,
  ): Promise<Sent> {
    const { signal } = options;
    let retries = 0;
    for (;;) {
      if (signal?.aborted) return { ok: false, error: cancelledError(), meta: null, retries };
      const attemptStart = this.now();
      const stream = typeof payload === 'object' ? payload : null;
      const attempt = stream ? openAttempt(stream) : null;
      let res: Dispatcher.ResponseData;
      try {
        // undici takes an async iterable body (its types list only Readable) and honours back-pressure.
        const body = attempt ? (attempt.iterable as unknown as Readable) : (payload as string | undefined);
        res = await this.agent.request({ origin: url.origin, path: url.path, method: options.method, headers, body, signal, ...(options.headersTimeoutMs ? { headersTimeout: options.headersTimeoutMs } : {}) });
      } catch (e) {
        if (stream && attempt && !signal?.aborted) {
          // Bytes already left (or the source failed): not retried here, the caller decides.
          const specific = streamBodyError(e, stream, attempt.sent(), this.host);
          if (specific) return { ok: false, error: { ...specific, message: this.scrubber.text(specific.message) }, meta: null, retries };
        }
        const error = this.errorFromThrown(e, signal, 'connect', null, options.headersTimeoutMs);
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
      const { error, notices } = await readErrorBody(res, resHeaders, this.limits, this.scrubber);
      // A streamed body (an upload) is sent again only when the service failed (5xx); a 4xx is final.
      // An error body over the cap is not fetched again: the next one would be as large.
      const retryable = !notices && (typeof payload === 'object' ? res.statusCode >= 500 : isRetryableStatus(res.statusCode));
      if (retryable) {
        const waited = await this.waitForRetry(retries + 1, resHeaders, error, options);
        if (waited === 'retry') {
          retries++;
          continue;
        }
        if (waited === 'cancelled') return { ok: false, error: cancelledError(meta.requestId), meta, retries };
      }
      return { ok: false, error, meta, retries, ...noticesOf(notices) };
    }
  }

  private async waitForRetry(
    attempt: number,
    headers: Record<string, string> | null,
    error: ApiError,
    options: RequestOptions,
  ): Promise<'retry' | 'give_up' | 'cancelled'> {
    if (options.retry === false) return 'give_up';
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

  /** A non-2xx answer as an ApiError (error-body.ts; the key scrubbed from body and message). */
  errorFromResponse(status: number, headers: Record<string, string>, text: string): ApiError {
    return errorFromResponse(this.scrubber, status, headers, text);
  }

  /** What a thrown network failure means for this connection (cancelled when `signal` aborted). */
  errorFromThrown(e: unknown, signal: AbortSignal | undefined, phase: FailurePhase, requestId: string | null, headersTimeoutMs = this.headersTimeoutMs): ApiError {
    if (signal?.aborted) return cancelledError(requestId);
    const error = apiErrorFromThrown(e, {
      host: this.host,
      phase,
      headersTimeoutMs,
      bodyTimeoutMs: this.bodyTimeoutMs,
      connectTimeoutMs: this.connectTimeoutMs,
      requestId,
    });
    error.message = this.scrubber.text(error.message);
    return error;
  }
}
