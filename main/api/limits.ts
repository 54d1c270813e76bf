/**
 * How much of a service's answer the client reads, keeps and forwards: the one place the caps
 * live (main/api/README.md says why each value), and the sentences that explain a cap to the
 * user when one is hit. A service, or a proxy in front of it, can send anything; without these a
 * 100 MB error body grew main by 1.5 GB and was stored and sent to the page whole.
 */
import { formatBytes } from '../../shared/byte-size';
import type { ResponseNotice } from '../../shared/contract/runs';

/** The caps one client applies; tests pass smaller ones through ApiClientOptions.limits. */
export interface ResponseLimits {
  /** An error (non-2xx) body: this much is read and kept, the rest is not read at all. */
  errorBodyBytes: number;
  /** A JSON success body of a plain (non-stream) call, after decoding. */
  jsonBodyBytes: number;
  /** One SSE line, and one event's data (all its `data:` lines), in characters. */
  sseEventChars: number;
  /** Raw SSE events handed on to be recorded (the inspector's log), summed `data` characters. */
  eventLogChars: number;
  /**
   * A compressed body that expands more than this many times (once past `bombMinBytes` decoded)
   * is treated as a decompression bomb. gzip tops out near 1,032:1 on the most repetitive input,
   * real JSON and event streams compress 5-30:1.
   */
  bombRatio: number;
  bombMinBytes: number;
}

const MIB = 2 ** 20;

/** The caps the app runs with. */
export const DEFAULT_LIMITS: ResponseLimits = {
  errorBodyBytes: 1 * MIB,
  jsonBodyBytes: 64 * MIB,
  sseEventChars: 4 * MIB,
  eventLogChars: 32 * MIB,
  bombRatio: 200,
  bombMinBytes: 32 * MIB,
};

/**
 * A cap that was hit, as recorded with the run (CapturedResponse.notices) and shown in the
 * inspector: which one, and a sentence a person can read.
 */
export type LimitNotice = ResponseNotice;

/** A cap was hit while reading a body: `notice` says which and is shown to the user. */
export class BodyLimitError extends Error {
  constructor(readonly notice: LimitNotice) {
    super(notice.message);
    this.name = 'BodyLimitError';
  }
}

/** "100 MB" when the size is known (Content-Length or read to the end), else "more than 1 MB". */
function sizeSaid(totalBytes: number | null, cap: number): string {
  return totalBytes !== null && totalBytes > cap ? formatBytes(totalBytes) : `more than ${formatBytes(cap)}`;
}

/** The service's error body was longer than the cap: the head is kept, the rest never read. */
export function errorBodyNotice(totalBytes: number | null, cap: number): LimitNotice {
  return {
    limit: 'error_body',
    message: `The service sent an error of ${sizeSaid(totalBytes, cap)}; the first ${formatBytes(cap)} is kept and the rest was not read.`,
  };
}

/** A plain answer too large to read: nothing is parsed, the head is kept for the inspector. */
export function jsonBodyNotice(totalBytes: number | null, cap: number, kept: number): LimitNotice {
  return {
    limit: 'json_body',
    message: `The service sent an answer of ${sizeSaid(totalBytes, cap)}, more than the ${formatBytes(cap)} the workbench reads for one answer; it was not read further, and its first ${formatBytes(kept)} is kept as text.`,
  };
}

/** One SSE line or event over the cap: reading stopped there, what came before is kept. */
export function sseEventNotice(cap: number): LimitNotice {
  return {
    limit: 'sse_event',
    message: `The service sent a single stream event of more than ${formatBytes(cap)}; the workbench stopped reading there. The output received before it is kept.`,
  };
}

/** The event log reached its cap: later events were read and used but only counted. */
export function eventLogNotice(cap: number, kept: number, dropped: number): LimitNotice {
  return {
    limit: 'event_log',
    message: `The stream's events passed ${formatBytes(cap)}: the inspector keeps the first ${kept.toLocaleString('en-US')} events; ${dropped.toLocaleString('en-US')} later ones were read (the output has them) but not kept.`,
  };
}

/** A compressed body that expanded like a decompression bomb. */
export function decompressionNotice(encoding: string, decoded: number, encoded: number, ratio: number): LimitNotice {
  return {
    limit: 'decompression',
    message: `The service's ${encoding} body expanded from ${formatBytes(encoded)} to over ${formatBytes(decoded)} (more than ${ratio} times): it looks like a decompression bomb, so the workbench stopped reading it.`,
  };
}
