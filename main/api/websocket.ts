/**
 * WebSocket connections for the voice families (realtime, streaming TTS/STT), opened with the
 * connection's own base URL (http → ws, https → wss) and key (`Authorization: Bearer`). The
 * handshake's outcome is a value: an open socket, or an ApiError saying why (a refused key reads
 * like any other 401; a closed port like any other refused connection).
 */
import { WebSocket } from 'ws';
import type { IncomingMessage } from 'node:http';
import type { CapturedRequest } from '../../shared/contract/runs';
import type { ApiClient, RequestOptions } from './client';
import { cancelledError, type ApiError } from './errors';
import { headersToRecord } from './http-headers';

export interface WebSocketConnectOptions {
  query?: RequestOptions['query'];
  /** Sec-WebSocket-Protocol values offered (e.g. `svc-client-secret.<token>`). */
  protocols?: string[];
  /** Extra handshake headers; an `authorization` here replaces the key (a client secret). */
  headers?: Record<string, string>;
  /**
   * Send no `Authorization` at all: the credential travels elsewhere (a realtime client secret in
   * the subprotocol, as a browser would send it), so the connection's key must not go along.
   */
  omitKey?: boolean;
  signal?: AbortSignal;
  /**
   * Largest message accepted from the service, in bytes (ws's `maxPayload`; ws's own default is
   * 100 MiB). A bigger one closes the socket with 1009 (event-socket.ts explains the bound).
   */
  maxPayload?: number;
  /**
   * Called synchronously when the socket opens, before the result resolves: a service may send its
   * first message in the same packet as the 101, and ws emits it before a promise continuation
   * would run, so listeners must be attached here.
   */
  onOpen?: (socket: WebSocket) => void;
}

/** The open socket (the caller owns it from here), or why it did not open. */
export type WebSocketResult =
  | { ok: true; socket: WebSocket; captured: CapturedRequest }
  | { ok: false; error: ApiError; captured: CapturedRequest };

/** Longest refusal body read for the error message. */
const MAX_REFUSAL_BODY = 64 * 1024;

function readRefusal(res: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    const done = (): void => resolve(Buffer.concat(parts).toString('utf8'));
    res.on('data', (chunk: Buffer) => {
      if (size < MAX_REFUSAL_BODY) parts.push(chunk);
      size += chunk.byteLength;
    });
    res.on('end', done);
    res.on('error', done);
    res.on('close', done);
  });
}

/**
 * Opens a WebSocket to `path` on the client's connection. Never rejects: a refused handshake
 * (401, 404, ...) is an `http` error with the service's message, an unreachable host a `network`
 * error, a handshake that does not finish in time a `timeout`, an aborted `signal` `cancelled`.
 */
export function connectWebSocket(client: ApiClient, path: string, opts: WebSocketConnectOptions = {}): Promise<WebSocketResult> {
  const target = client.webSocketTarget(path, opts.query);
  const headers = { ...target.headers };
  if (opts.omitKey) delete headers.authorization;
  for (const [k, v] of Object.entries(opts.headers ?? {})) headers[k.toLowerCase()] = v;
  const { host } = target;
  const captured = opts.omitKey ? { ...target.captured, headers: Object.fromEntries(Object.entries(target.captured.headers).filter(([k]) => k !== 'authorization')) } : target.captured;
  if (opts.signal?.aborted) return Promise.resolve({ ok: false, error: cancelledError(), captured });

  return new Promise((resolve) => {
    const socket = new WebSocket(target.url, opts.protocols ?? [], {
      headers,
      handshakeTimeout: target.handshakeTimeoutMs,
      followRedirects: false,
      ...(opts.maxPayload !== undefined ? { maxPayload: opts.maxPayload } : {}),
    });
    let settled = false;
    const fail = (error: ApiError): void => {
      if (settled) return;
      settled = true;
      cleanup();
      // ws emits 'error' while tearing a half-open handshake down; nobody needs it any more.
      socket.on('error', () => undefined);
      socket.terminate();
      resolve({ ok: false, error, captured });
    };
    const onOpen = (): void => {
      if (settled) return;
      settled = true;
      cleanup();
      opts.onOpen?.(socket);
      resolve({ ok: true, socket, captured });
    };
    const onRefused = (_req: unknown, res: IncomingMessage): void => {
      const status = res.statusCode ?? 0;
      void readRefusal(res).then((text) => {
        const error = client.errorFromResponse(status, headersToRecord(res.headers), text);
        fail({ ...error, message: `The WebSocket to ${host} was refused. ${error.message}` });
      });
    };
    const onError = (e: Error): void => {
      if (opts.signal?.aborted) return fail(cancelledError());
      if (/handshake has timed out/i.test(e.message)) {
        return fail({
          kind: 'timeout',
          status: null,
          code: null,
          message: `The WebSocket to ${host} did not open within ${Math.round(target.handshakeTimeoutMs / 100) / 10} s.`,
          requestId: null,
        });
      }
      if ((e as { code?: unknown }).code !== undefined) return fail(client.errorFromThrown(e, opts.signal, 'connect', null));
      fail({ kind: 'protocol', status: null, code: null, message: `${host} did not complete the WebSocket handshake: ${e.message}.`, requestId: null });
    };
    const onAbort = (): void => fail(cancelledError());
    const cleanup = (): void => {
      socket.off('open', onOpen);
      socket.off('unexpected-response', onRefused);
      socket.off('error', onError);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    socket.on('open', onOpen);
    socket.on('unexpected-response', onRefused);
    socket.on('error', onError);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
