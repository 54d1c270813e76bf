/**
 * Turns what undici throws (refused, reset, DNS, TLS, timeouts, aborts) into ApiErrors with a
 * message naming the host and the cause, and says which of them are safe to retry.
 */
import type { ApiError } from './errors';

/** Where the failure happened: before any response, or while reading a body that had started. */
export type FailurePhase = 'connect' | 'body';

export interface ThrownContext {
  host: string;
  phase: FailurePhase;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  connectTimeoutMs: number;
  requestId: string | null;
}

function errorCode(e: unknown): string {
  if (!e || typeof e !== 'object') return '';
  const o = e as { code?: unknown; cause?: unknown };
  if (typeof o.code === 'string') return o.code;
  return errorCode(o.cause);
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

const CAUSES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed while sending',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'DNS lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_SOCKET: 'the other side closed the connection',
  UND_ERR_CLOSED: 'the client was closed',
  UND_ERR_DESTROYED: 'the client was closed',
};

/** Codes that mean the request never reached the service, so sending it again is harmless. */
const RETRYABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EAI_AGAIN', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

/** Whether a failure before any response may be retried. */
export function isRetryableThrown(e: unknown): boolean {
  return RETRYABLE.has(errorCode(e));
}

/** The ApiError for an exception from undici (not for aborts: the caller checks its signal first). */
export function apiErrorFromThrown(e: unknown, ctx: ThrownContext): ApiError {
  const code = errorCode(e);
  const base = { status: null, code: code || null, requestId: ctx.requestId };
  if (code === 'UND_ERR_HEADERS_TIMEOUT') {
    return { ...base, kind: 'timeout', message: `No answer from ${ctx.host} within ${seconds(ctx.headersTimeoutMs)}.` };
  }
  if (code === 'UND_ERR_BODY_TIMEOUT') {
    return {
      ...base,
      kind: 'timeout',
      message: `${ctx.host} stopped sending: nothing arrived for ${seconds(ctx.bodyTimeoutMs)}. Partial output is kept.`,
    };
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return { ...base, kind: 'timeout', message: `Could not connect to ${ctx.host} within ${seconds(ctx.connectTimeoutMs)}.` };
  }
  const cause = CAUSES[code] ?? (e instanceof Error && e.message ? e.message : 'unknown network error');
  if (ctx.phase === 'body') {
    return { ...base, kind: 'network', message: `The connection to ${ctx.host} dropped mid-answer (${cause}). Partial output is kept.` };
  }
  const hint = code === 'ECONNREFUSED' ? ' Is the service running?' : code === 'ENOTFOUND' ? ' Check the base URL in Connections.' : '';
  return { ...base, kind: 'network', message: `Could not connect to ${ctx.host} (${cause}).${hint}` };
}
