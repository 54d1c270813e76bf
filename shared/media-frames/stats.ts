/** Small helpers for timing figures (benchmarks and session stats): percentiles and jitter. */

/** The p-th percentile (0..100, nearest rank) of `values`; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** |interval - nominal| for each consecutive pair of `times` (ms). */
export function intervalJitter(times: readonly number[], nominalMs: number): number[] {
  const out: number[] = [];
  for (let i = 1; i < times.length; i++) out.push(Math.abs(times[i] - times[i - 1] - nominalMs));
  return out;
}
