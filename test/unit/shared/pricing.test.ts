import { describe, expect, it } from 'vitest';
import { formatTicks, formatTokenPrice, formatUsd } from '../../../shared/pricing';

describe('pricing', () => {
  describe('formatUsd()', () => {
    it.each([
      [0, '$0'],
      [0.3, '$0.30'],
      [2, '$2.00'],
      [12.345, '$12.35'],
      [0.000123, '$0.000123'],
      [0.0000742, '$0.0000742'],
      [-1.5, '-$1.50'],
    ])('formats %s as %s', (usd, text) => {
      expect(formatUsd(usd)).toBe(text);
    });

    it('never shows a non-zero cost as zero', () => {
      expect(formatUsd(0.00000001)).not.toMatch(/^\$0(\.0+)?$/);
    });
  });

  it('formats ticks and token prices at the edge', () => {
    expect(formatTicks(742_000)).toBe('$0.0000742');
    expect(formatTicks(null)).toBe('—');
    expect(formatTokenPrice(20_000)).toBe('$2.00 / 1M');
    expect(formatTokenPrice(null)).toBe('—');
  });
});
