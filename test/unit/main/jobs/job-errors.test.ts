import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../../../main/api/errors';
import { backoffDelayMs, JobFailedError, jobFailureOf, RetryableJobError, waitReasonOf } from '../../../../main/jobs/job-errors';

const http = (status: number): ApiError => ({ kind: 'http', status, code: null, message: `HTTP ${status}`, requestId: null });
const kind = (k: ApiError['kind']): ApiError => ({ kind: k, status: null, code: null, message: k, requestId: null });

describe('job-errors', () => {
  describe('jobFailureOf()', () => {
    it('waits out no answer, an unreadable answer, 408, 429 and every 5xx', () => {
      for (const error of [kind('network'), kind('timeout'), kind('protocol'), kind('stream_incomplete'), http(408), http(429), http(500), http(502), http(503), http(504)]) {
        expect(jobFailureOf(error, null), `${error.kind} ${error.status}`).toBeInstanceOf(RetryableJobError);
      }
    });

    it('ends the job on a definite answer: any other 4xx, a local file failure', () => {
      for (const error of [http(400), http(401), http(403), http(404), http(409), http(413), http(422), kind('file')]) {
        expect(jobFailureOf(error, null), `${error.kind} ${error.status}`).toBeInstanceOf(JobFailedError);
      }
    });

    it('keeps the service\'s Retry-After: seconds, milliseconds or an HTTP date', () => {
      const now = Date.parse('2026-01-01T00:00:00Z');
      expect((jobFailureOf(http(429), { 'retry-after': '120' }, now) as RetryableJobError).retryAfterMs).toBe(120_000);
      expect((jobFailureOf(http(503), { 'retry-after-ms': '1500' }, now) as RetryableJobError).retryAfterMs).toBe(1500);
      expect((jobFailureOf(http(503), { 'retry-after': 'Thu, 01 Jan 2026 00:05:00 GMT' }, now) as RetryableJobError).retryAfterMs).toBe(300_000);
      expect((jobFailureOf(http(503), { 'retry-after': 'soon' }, now) as RetryableJobError).retryAfterMs).toBeUndefined();
      expect(jobFailureOf(http(400), { 'retry-after': '5' }, now)).toBeInstanceOf(JobFailedError);
    });
  });

  describe('backoffDelayMs()', () => {
    const policy = { firstMs: 2000, maxMs: 30_000, maxRetryAfterMs: 3_600_000 };
    it('doubles to the cap and stays there, however many failures', () => {
      expect([1, 2, 3, 4, 5, 6, 50, 5000].map((n) => backoffDelayMs(n, policy))).toEqual([2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000, 30_000]);
    });
    it('waits as long as Retry-After asks, beyond the cap, up to maxRetryAfterMs, never less than the backoff', () => {
      const hinted = (ms: number) => new RetryableJobError({ code: 'api_error', status: 429, message: 'slow' }, ms);
      expect(backoffDelayMs(1, policy, hinted(300_000))).toBe(300_000);
      expect(backoffDelayMs(1, policy, hinted(86_400_000))).toBe(3_600_000);
      // Never sooner than the backoff: a Retry-After of 0 must not make a busy loop.
      expect(backoffDelayMs(3, policy, hinted(0))).toBe(8000);
    });
  });

  describe('waitReasonOf()', () => {
    it('says what the last failure means for a person', () => {
      expect(waitReasonOf({ code: 'network', message: 'ECONNREFUSED' })).toMatch(/cannot reach the service/);
      expect(waitReasonOf({ code: 'api_error', status: 503, message: 'x' })).toMatch(/unavailable or failing \(503\)/);
      expect(waitReasonOf({ code: 'api_error', status: 429, message: 'x' })).toMatch(/rate limiting/);
      expect(waitReasonOf({ code: 'timeout', message: 'x' })).toMatch(/does not answer in time/);
    });
  });
});
