import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, isRetryableStatus, retryDelayMs } from '../../../../main/api/retry';

const NOW = Date.parse('2026-01-01T00:00:00Z');

describe('retry', () => {
  describe('isRetryableStatus()', () => {
    it.each([
      [408, true],
      [409, true],
      [429, true],
      [500, true],
      [502, true],
      [503, true],
      [599, true],
      [400, false],
      [401, false],
      [403, false],
      [404, false],
      [413, false],
      [422, false],
      [200, false],
      [202, false],
    ])('status %i -> %s', (status, expected) => {
      expect(isRetryableStatus(status)).toBe(expected);
    });
  });

  describe('retryDelayMs()', () => {
    // random 0 -> the full backoff, random ~1 -> 75% of it.
    it.each<{ attempt: number; headers: Record<string, string> | null; random: number; expected: number | null; why: string }>([
      { attempt: 1, headers: null, random: 0, expected: 500, why: 'first backoff' },
      { attempt: 2, headers: null, random: 0, expected: 1000, why: 'doubles' },
      { attempt: 2, headers: null, random: 0.999999, expected: 750, why: 'jitter takes off at most 25%' },
      { attempt: 2, headers: null, random: 0.5, expected: 875, why: 'jitter in between' },
      { attempt: 3, headers: null, random: 0, expected: null, why: 'past the retry budget' },
      { attempt: 0, headers: null, random: 0, expected: null, why: 'attempts are 1-based' },
      { attempt: 1, headers: { 'retry-after': '2' }, random: 0.9, expected: 2000, why: 'Retry-After seconds, no jitter' },
      { attempt: 1, headers: { 'retry-after': '0.5' }, random: 0, expected: 500, why: 'fractional seconds' },
      { attempt: 1, headers: { 'retry-after-ms': '1234', 'retry-after': '9' }, random: 0, expected: 1234, why: 'retry-after-ms wins' },
      { attempt: 1, headers: { 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, random: 0, expected: 5000, why: 'HTTP date' },
      { attempt: 1, headers: { 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }, random: 0, expected: 0, why: 'HTTP date in the past' },
      { attempt: 1, headers: { 'retry-after': '60' }, random: 0, expected: null, why: 'not below maxRetryAfterMs' },
      { attempt: 1, headers: { 'retry-after': '3600' }, random: 0, expected: null, why: 'far too long: give up now' },
      { attempt: 1, headers: { 'retry-after': 'soon' }, random: 0, expected: 500, why: 'unreadable: back off normally' },
      { attempt: 3, headers: { 'retry-after': '1' }, random: 0, expected: null, why: 'Retry-After does not extend the budget' },
    ])('$why: attempt $attempt, $headers -> $expected', ({ attempt, headers, random, expected }) => {
      expect(retryDelayMs(attempt, DEFAULT_RETRY, headers, () => random, NOW)).toBe(expected);
    });

    it.each([
      [1, 500],
      [2, 1000],
      [3, 2000],
      [4, 4000],
      [5, 8000],
      [6, 8000],
    ])('caps the backoff at maxDelayMs: attempt %i -> %i', (attempt, expected) => {
      expect(retryDelayMs(attempt, { ...DEFAULT_RETRY, retries: 10 }, null, () => 0, NOW)).toBe(expected);
    });
  });
});
