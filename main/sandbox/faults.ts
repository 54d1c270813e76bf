/**
 * Fault injection for client tests, asked for with the request header `x-sandbox-fault`
 * (documented in README.md): `status=503`, `status=429;retry-after=2`, `delay=300`,
 * `drop-after=5`, `malformed-after=3`, `error-after=4` (a mid-stream service error in the
 * endpoint's own form), and `times=N` to fault only the first N identical requests.
 */
import { SandboxError } from './errors';

export const FAULT_HEADER = 'x-sandbox-fault';

export interface Fault {
  /** Answer with this HTTP status instead of the real response. */
  status?: number;
  /** Seconds, for the Retry-After header (and retry-after-ms) of a status fault. */
  retryAfter?: number;
  /** Milliseconds to wait before answering. */
  delay?: number;
  /** Streams: destroy the socket after this many SSE frames; non-streams: destroy it before answering. */
  dropAfter?: number;
  /** Streams: after this many frames, send one frame whose JSON is cut short. */
  malformedAfter?: number;
  /** Streams: after this many frames, send the endpoint's error frame and end without `[DONE]`. */
  errorAfter?: number;
  /** Apply only to the first N requests with the same header value, method, path and body. */
  times?: number;
}

const KEYS: Record<string, keyof Fault> = {
  status: 'status',
  'retry-after': 'retryAfter',
  delay: 'delay',
  'drop-after': 'dropAfter',
  'malformed-after': 'malformedAfter',
  'error-after': 'errorAfter',
  times: 'times',
};

/** Parses the header; throws SandboxError 400 naming the bad part. */
export function parseFault(header: string): Fault {
  const fault: Fault = {};
  for (const part of header.split(/[;,]/).map((p) => p.trim()).filter(Boolean)) {
    const [name, raw] = part.split('=').map((s) => s.trim());
    const key = KEYS[name.toLowerCase()];
    const n = Number(raw);
    if (!key || raw === undefined || raw === '' || !Number.isFinite(n) || n < 0) {
      throw new SandboxError(
        400,
        `${FAULT_HEADER}: cannot read "${part}". Use name=number pairs separated by ";" with names ${Object.keys(KEYS).join(', ')}.`,
      );
    }
    fault[key] = n;
  }
  if (fault.status !== undefined && (!Number.isInteger(fault.status) || fault.status < 400 || fault.status > 599)) {
    throw new SandboxError(400, `${FAULT_HEADER}: status must be an HTTP error status between 400 and 599.`);
  }
  if (fault.errorAfter !== undefined && !Number.isInteger(fault.errorAfter)) {
    throw new SandboxError(400, `${FAULT_HEADER}: error-after must be a whole number of stream events (0 or more), like error-after=4.`);
  }
  return fault;
}

/** The message of the error an `error-after=N` fault injects into a stream. */
export function errorAfterMessage(n: number): string {
  return `The sandbox injected an overload after ${n} events (${FAULT_HEADER}: error-after)`;
}

/** Counts faulted requests so `times=N` stops after N; bounded so a long run cannot grow it forever. */
export class FaultBook {
  private readonly counts = new Map<string, number>();
  private readonly maxEntries: number;

  constructor(maxEntries = 10_000) {
    this.maxEntries = maxEntries;
  }

  /** Whether the fault applies to this request (and counts it when it does). */
  applies(fault: Fault, key: string): boolean {
    if (fault.times === undefined) return true;
    const seen = this.counts.get(key) ?? 0;
    if (seen >= fault.times) return false;
    if (this.counts.size >= this.maxEntries) this.counts.delete(this.counts.keys().next().value as string);
    this.counts.set(key, seen + 1);
    return true;
  }

  clear(): void {
    this.counts.clear();
  }
}

/** The error a status fault answers with, with the headers a client's retry logic reads. */
export function faultError(fault: Fault & { status: number }, team: string): SandboxError {
  const headers: Record<string, string> = {};
  if (fault.retryAfter !== undefined) {
    headers['retry-after'] = String(Math.ceil(fault.retryAfter));
    headers['retry-after-ms'] = String(Math.round(fault.retryAfter * 1000));
  }
  const messages: Record<number, string> = {
    429: `Your team ${team} has reached its rate limit for this model (injected by ${FAULT_HEADER}). Retry after the Retry-After delay.`,
    500: `The sandbox failed while handling this request (injected by ${FAULT_HEADER}). Retrying may succeed.`,
    503: `The service is temporarily overloaded (injected by ${FAULT_HEADER}). Retry in a few seconds.`,
  };
  return new SandboxError(fault.status, messages[fault.status] ?? `Injected failure ${fault.status} (${FAULT_HEADER}).`, headers);
}
