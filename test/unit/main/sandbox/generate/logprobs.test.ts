import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { logprobsFor } from '../../../../../main/sandbox/generate/logprobs';
import { Rng } from '../../../../../main/sandbox/generate/rng';

describe('logprobs', () => {
  describe('logprobsFor()', () => {
    it('never gives a token alternatives that add up to more than 100%, and lists them most likely first', () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 8 }), (seed, top) => {
          for (const entry of logprobsFor(['Hello', ' world', '.', ' the'], new Rng(seed), top)) {
            const total = entry.top_logprobs.reduce((sum, t) => sum + Math.exp(t.logprob), 0);
            expect(total).toBeLessThanOrEqual(1 + 1e-5);
            expect(entry.top_logprobs).toHaveLength(top);
            expect(entry.top_logprobs.some((t) => t.token === entry.token && t.logprob === entry.logprob)).toBe(true);
            const sorted = [...entry.top_logprobs].sort((a, b) => b.logprob - a.logprob);
            expect(entry.top_logprobs).toEqual(sorted);
            expect(entry.logprob).toBeLessThanOrEqual(0);
          }
        }),
      );
    });

    it('gives no alternatives when none are asked for', () => {
      expect(logprobsFor(['a'], new Rng(1), 0)[0]!.top_logprobs).toEqual([]);
    });
  });
});
