/**
 * The cost of one realtime response (`response.done`'s usage) in USD ticks. The service's own
 * `cost_in_usd_ticks` wins when the usage carries one; otherwise the model's catalogue prices: a
 * model record has no audio prices, so every token in (text or audio) is priced as a prompt token,
 * the cached ones at the cached price, and every token out as a completion token. Per response,
 * not per call, so a long-context tier applies to the response that reached it.
 */
import { costInTicks, type TokenPrices } from '../cost';

export function realtimeResponseCost(prices: TokenPrices | null, usage: Record<string, unknown>): number | null {
  if (typeof usage.cost_in_usd_ticks === 'number' && Number.isFinite(usage.cost_in_usd_ticks)) return usage.cost_in_usd_ticks;
  if (!prices) return null;
  const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
  const details = (usage.input_token_details ?? {}) as Record<string, unknown>;
  return costInTicks(prices, { promptTokens: n(usage.input_tokens), cachedTokens: n(details.cached_tokens), completionTokens: n(usage.output_tokens) });
}
