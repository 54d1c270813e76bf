/**
 * How a job's attempt fails and when the queue tries again. A `RetryableJobError` is transient
 * (the network dropped, the service was overloaded or rate limited): the job waits it out, for as
 * long as the outage lasts, with a capped backoff or the wait the service asked for; a
 * `JobFailedError` carries the error the job ends with (a definite answer from the service);
 * anything else thrown is a bug, recorded as `internal`.
 */
import { WorkbenchFailure, type WorkbenchError } from '../../shared/contract/errors';
import { toWorkbenchError, type ApiError } from '../api/errors';
import { serverDelayMs } from '../api/retry';

/**
 * Waits between attempts while transient failures follow one another: doubling from `firstMs`
 * up to `maxMs`; a service's Retry-After is honoured up to `maxRetryAfterMs` (a longer ask is
 * waited out in steps of that; a shorter one never shortens the backoff). There is no last attempt: only the user stops a waiting job.
 */
export interface BackoffPolicy {
  firstMs: number;
  maxMs: number;
  maxRetryAfterMs: number;
}

/** A transient failure: the job is tried again after a backoff (or after `retryAfterMs`). */
export class RetryableJobError extends Error {
  constructor(
    readonly error: WorkbenchError,
    readonly retryAfterMs?: number,
  ) {
    super(error.message);
    this.name = 'RetryableJobError';
  }
}

/** A final failure: the job ends `failed` with this error. */
export class JobFailedError extends Error {
  constructor(readonly error: WorkbenchError) {
    super(error.message);
    this.name = 'JobFailedError';
  }
}

export function isRetryable(error: unknown): error is RetryableJobError {
  return error instanceof RetryableJobError;
}

/** The error a failed attempt is recorded with. */
export function toJobError(error: unknown): WorkbenchError {
  if (error instanceof RetryableJobError || error instanceof JobFailedError || error instanceof WorkbenchFailure) return error.error;
  return { code: 'internal', message: `The job failed: ${error instanceof Error ? error.message : String(error)}. The details are in the app's log.` };
}

/**
 * The wait after the `failures`-th transient failure in a row (1-based): the backoff, or longer
 * when the service asked for longer (never sooner: a `Retry-After: 0` must not make a busy loop).
 */
export function backoffDelayMs(failures: number, policy: BackoffPolicy, error?: unknown): number {
  const backoff = Math.min(policy.maxMs, policy.firstMs * 2 ** Math.min(30, Math.max(0, failures - 1)));
  const hinted = error instanceof RetryableJobError ? error.retryAfterMs : undefined;
  return hinted !== undefined && hinted >= 0 ? Math.max(backoff, Math.min(policy.maxRetryAfterMs, hinted)) : backoff;
}

/**
 * Whether a failed request is worth waiting out: no answer (network, timeout), an answer the app
 * could not read (a proxy or captive portal in the way), 408, 429 and every 5xx. Any other status
 * is the service's definite answer: trying the same request again would get the same.
 */
export function isTransientApiError(error: ApiError): boolean {
  if (error.kind === 'network' || error.kind === 'timeout' || error.kind === 'protocol' || error.kind === 'stream_incomplete') return true;
  const status = error.status ?? 0;
  return error.kind === 'http' && (status === 408 || status === 429 || status >= 500);
}

/**
 * A failed request of a job as what the queue does with it: waited out (with the service's
 * Retry-After, in seconds or as a date) or the job's end. `headers` have lower-case names.
 */
export function jobFailureOf(error: ApiError, headers: Record<string, string> | null | undefined, now: number = Date.now()): RetryableJobError | JobFailedError {
  const workbench = toWorkbenchError(error);
  if (!isTransientApiError(error)) return new JobFailedError(workbench);
  const hinted = headers ? serverDelayMs(headers, now) : null;
  return new RetryableJobError(workbench, hinted ?? undefined);
}

/** Why a job waits, for a person: what the last transient failure means. */
export function waitReasonOf(error: WorkbenchError): string {
  const status = error.status;
  if (status === 429) return 'The service is rate limiting requests (429), or the team is out of credits; the app waits as long as it asks.';
  if (status === 408) return 'The service timed out the request (408).';
  if (status !== undefined && status >= 500) return `The service is unavailable or failing (${status}).`;
  switch (error.code) {
    case 'network':
      return 'The app cannot reach the service: no network, or the service is down.';
    case 'timeout':
      return 'The service does not answer in time.';
    case 'protocol':
    case 'stream_incomplete':
      return 'The service’s answer could not be read (a proxy or a sign-in page may be in the way).';
    default:
      return `The last attempt failed: ${error.message}`;
  }
}
