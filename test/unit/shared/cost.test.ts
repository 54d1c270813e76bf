import { describe, expect, it } from 'vitest';
import { centsPer100MToUsdPer1M, costInTicks, isLongContext, TICKS_PER_USD } from '../../../shared/cost';

const prices = {
  prompt_text_token_price: 20_000, // $2.00 per 1M
  cached_prompt_text_token_price: 5_000,
  completion_text_token_price: 100_000,
  prompt_text_token_price_long_context: 40_000,
  cached_prompt_text_token_price_long_context: 0, // 0: the standard cached price applies
  completion_text_token_price_long_context: 200_000,
  long_context_threshold: 128_000,
};

describe('cost', () => {
  describe('costInTicks()', () => {
    it('prices one million prompt tokens at the listed USD per 1M', () => {
      expect(costInTicks(prices, { promptTokens: 1_000_000, completionTokens: 0 }) / TICKS_PER_USD).toBe(4); // long tier
      expect(costInTicks(prices, { promptTokens: 100_000, completionTokens: 0 }) / TICKS_PER_USD).toBe(0.2);
    });

    it('charges cached tokens at the cached price and the rest at the prompt price', () => {
      expect(costInTicks(prices, { promptTokens: 1000, cachedTokens: 400, completionTokens: 10 })).toBe(600 * 20_000 + 400 * 5_000 + 10 * 100_000);
    });

    it('switches to the long-context tier at the threshold, keeping the standard price where the tier is 0', () => {
      expect(isLongContext(prices, 127_999)).toBe(false);
      expect(isLongContext(prices, 128_000)).toBe(true);
      expect(costInTicks(prices, { promptTokens: 128_000, cachedTokens: 1000, completionTokens: 1 })).toBe(127_000 * 40_000 + 1000 * 5_000 + 200_000);
    });

    it('has no long-context tier when the threshold is 0 or missing', () => {
      expect(isLongContext({ ...prices, long_context_threshold: 0 }, 10_000_000)).toBe(false);
      expect(isLongContext({ prompt_text_token_price: 1 }, 10_000_000)).toBe(false);
    });
  });

  describe('centsPer100MToUsdPer1M()', () => {
    it('converts the service unit to what people compare', () => {
      expect(centsPer100MToUsdPer1M(20_000)).toBe(2);
      expect(centsPer100MToUsdPer1M(2_500)).toBe(0.25);
    });
  });
});
