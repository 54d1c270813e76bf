/**
 * How a job's attempt fails and when the queue tries again: a `RetryableJobError` is transient
 * (the network dropped, the service was overloaded) and is retried with exponential backoff; a
 * `JobFailedError` carries the error the job ends with; anything else thrown is a bug, recorded
 * as `internal`.
 */
import { WorkbenchFailure, type WorkbenchError } from '../../shared/contract/errors';

/** Retries of transient failures: delays double from `firstMs` up to `maxMs`; `maxAttempts` in all. */
export interface BackoffPolicy {
  firstMs: number;
  maxMs: number;
  maxAttempts: number;
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

/** The wait before the attempt after `attempt` (1-based). */
export function backoffDelayMs(attempt: number, policy: BackoffPolicy, error?: unknown): number {
  const hinted = error instanceof RetryableJobError ? error.retryAfterMs : undefined;
  if (hinted !== undefined && hinted >= 0) return Math.min(policy.maxMs, hinted);
  return Math.min(policy.maxMs, policy.firstMs * 2 ** (attempt - 1));
}

