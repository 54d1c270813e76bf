/**
 * When to retry a failed request and how long to wait first. Pure: the client supplies the
 * clock and the random source, so the table test can pin every case.
 */

/** How many times to retry and the bounds of the waits between attempts. */
export interface RetryPolicy {
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A server asking for a longer wait than this is not retried: the caller sees the error now. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 2, baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60000 };

/** 408 timeout, 409 conflict (lock contention), 429 rate limit, and every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || (status >= 500 && status <= 599);
}

/**
 * The server's requested wait in ms from `retry-after-ms` or `retry-after` (seconds or an HTTP
 * date), or null if absent/unreadable. `headers` must have lower-case names.
 */
export function serverDelayMs(headers: Record<string, string>, now: number): number | null {
  const ms = headers['retry-after-ms'];
  if (ms !== undefined && ms.trim() !== '') {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  const ra = headers['retry-after'];
  if (ra === undefined || ra.trim() === '') return null;
  if (/^\s*\d+(\.\d+)?\s*$/.test(ra)) return Number(ra) * 1000;
  const date = Date.parse(ra);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

/**
 * Delay before retry `attempt` (1-based), or null when that retry should not happen.
 * - attempt beyond `policy.retries` -> null.
 * - The server's `retry-after-ms` / `Retry-After` (seconds or HTTP date) is honoured when it is
 *   below `maxRetryAfterMs`; a longer requested wait -> null (give up rather than hang).
 * - Otherwise exponential backoff: baseDelayMs doubling per attempt, capped at maxDelayMs, then
 *   jittered down by up to 25% (delay * (1 - 0.25 * random())), so it lies in [0.75x, 1x].
 * `random` returns [0,1); `now` is wall-clock ms (Date.now()) for HTTP-date Retry-After.
 * `headers` must have lower-case names.
 */
export function retryDelayMs(
  attempt: number,
  policy: RetryPolicy,
  headers: Record<string, string> | null,
  random: () => number,
  now: number = Date.now(),
): number | null {
  if (attempt < 1 || attempt > policy.retries) return null;
  const requested = headers ? serverDelayMs(headers, now) : null;
  if (requested !== null) {
    return requested < policy.maxRetryAfterMs ? Math.round(requested) : null;
  }
  const backoff = Math.min(policy.baseDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
  return Math.round(backoff * (1 - 0.25 * random()));
}
