/**
 * Formatters for money at the edge of the UI. Everything before this is integer ticks or cents.
 */
import { centsPer100MToUsdPer1M, ticksToUsd } from './cost';

/** `$0.000123` for small amounts, `$1.23` for large; never rounds a non-zero cost to `$0.00`. */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  const abs = Math.abs(usd);
  const digits = abs >= 1 ? 2 : Math.min(8, Math.max(2, 1 - Math.floor(Math.log10(abs)) + 2));
  // Trailing zeros go, but never below cents: `$0.30`, `$0.000123`, `$12.50`.
  const text = abs.toFixed(digits).replace(/(\.\d{2}\d*?)0+$/, '$1');
  return `${usd < 0 ? '-' : ''}$${text}`;
}

export function formatTicks(ticks: number | null | undefined): string {
  if (ticks === null || ticks === undefined) return '—';
  return formatUsd(ticksToUsd(ticks));
}

/** A model price field (cents per 100M tokens) as `$2.00 / 1M`. */
export function formatTokenPrice(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return '—';
  const usd = centsPer100MToUsdPer1M(cents);
  return `${formatUsd(usd)} / 1M`;
}
