import { describe, expect, it } from 'vitest';
import { LIMITS } from '@shared/limits';
import { EFFORT_OPTIONS, rangeHint } from '@/lib/param-hints';

describe('param-hints', () => {
  describe('rangeHint()', () => {
    it('reads a limit as "min to max"', () => {
      expect(rangeHint(LIMITS.temperature)).toBe(`${LIMITS.temperature.min} to ${LIMITS.temperature.max}`);
    });
  });

  describe('EFFORT_OPTIONS', () => {
    it('offers "default" (unset) first, then every effort the spec allows', () => {
      expect(EFFORT_OPTIONS[0]).toEqual({ label: 'default', value: null });
      expect(EFFORT_OPTIONS.slice(1).map((o) => o.value)).toEqual([...LIMITS.reasoningEffort]);
    });
  });
});
