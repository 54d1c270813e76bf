/**
 * Cost maths in integer ticks (10^10 per USD, 10^8 per US cent). Model prices are integers in
 * USD cents per 100 million tokens, so ticks for N tokens = N * price (cents/1e8 tok * 1e8 ticks/cent).
 * Formatting happens only at the edge (pricing.ts).
 */
export const TICKS_PER_USD = 10_000_000_000;
export const TICKS_PER_CENT = 100_000_000;

/** The price fields of a model record that cost maths needs (spec: Model / Language model). */
export interface TokenPrices {
  prompt_text_token_price?: number | null;
  cached_prompt_text_token_price?: number | null;
  completion_text_token_price?: number | null;
  prompt_image_token_price?: number | null;
  prompt_text_token_price_long_context?: number | null;
  cached_prompt_text_token_price_long_context?: number | null;
  completion_text_token_price_long_context?: number | null;
  long_context_threshold?: number | null;
}

export interface TokenCounts {
  /** All prompt text tokens, cached plus non-cached. */
  promptTokens: number;
  cachedTokens?: number;
  imageTokens?: number;
  /** Visible completion tokens plus reasoning tokens: both are billed as completion. */
  completionTokens: number;
}

/** Whether a prompt of this size falls in the model's long-context tier. */
export function isLongContext(prices: TokenPrices, promptTokens: number): boolean {
  const threshold = prices.long_context_threshold ?? 0;
  return threshold > 0 && promptTokens >= threshold;
}

/**
 * Ticks for one request. Long-context prices replace the standard ones when the prompt reaches the
 * threshold; a long-context price of 0 (or null) means the standard price applies (spec).
 */
export function costInTicks(prices: TokenPrices, counts: TokenCounts): number {
  const long = isLongContext(prices, counts.promptTokens);
  const pick = (standard: number | null | undefined, longTier: number | null | undefined): number =>
    long && longTier ? longTier : (standard ?? 0);
  const promptPrice = pick(prices.prompt_text_token_price, prices.prompt_text_token_price_long_context);
  const cachedPrice = pick(
    prices.cached_prompt_text_token_price ?? prices.prompt_text_token_price,
    prices.cached_prompt_text_token_price_long_context,
  );
  const completionPrice = pick(
    prices.completion_text_token_price,
    prices.completion_text_token_price_long_context,
  );
  const cached = Math.min(counts.cachedTokens ?? 0, counts.promptTokens);
  const uncached = counts.promptTokens - cached;
  return (
    uncached * promptPrice +
    cached * cachedPrice +
    (counts.imageTokens ?? 0) * (prices.prompt_image_token_price ?? 0) +
    counts.completionTokens * completionPrice
  );
}

/** Cents per 100M tokens -> USD per 1M tokens (what people compare prices in). */
export function centsPer100MToUsdPer1M(cents: number): number {
  return cents / 100 / 100;
}

/** Cents -> USD, for per-image prices. */
export function centsToUsd(cents: number): number {
  return cents / 100;
}

export function ticksToUsd(ticks: number): number {
  return ticks / TICKS_PER_USD;
}
