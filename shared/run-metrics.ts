/**
 * The figures every text run shows (playground, History list and entry, Compare): time to first
 * token, tokens per second, total time, tokens in / out / reasoning, cost. Derived from what a run
 * record already keeps (timings, usage normalised to the chat shape, cost ticks), so nothing new
 * is stored but the time of the first token. A figure the service did not report is null and is
 * shown as "—", never as 0.
 */
import type { ChatUsage } from './wire/chat';
import type { Endpoint, RunTimings } from './contract/runs';
import { endpointInfo } from './families';

export interface RunMetrics {
  /** From the start of the request to the first generated text (or, when not recorded, the first byte). */
  firstTokenMs: number | null;
  /** Whether `firstTokenMs` is the first byte because the first token's time was not recorded. */
  firstTokenIsFirstByte: boolean;
  /** Generated tokens (output + reasoning) per second: from the first token to the end, or over the whole run when unrecorded. */
  tokensPerSecond: number | null;
  totalMs: number | null;
  inputTokens: number | null;
  /** Output tokens (for Messages, thinking included: the service does not count it apart). */
  outputTokens: number | null;
  /** Null where the service does not report reasoning apart from the output (Messages). */
  reasoningTokens: number | null;
  /** Null when the service gave no usage or the catalogue has no prices for the model. */
  costTicks: number | null;
}

/** What a run's metrics are computed from: any subset of a record's fields. */
export interface RunMetricsSource {
  endpoint?: Endpoint | null;
  timings?: Partial<RunTimings> | null;
  usage?: ChatUsage | null;
  costTicks?: number | null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The figures of a run; every unknown is null. */
export function runMetrics(source: RunMetricsSource): RunMetrics {
  const timings = source.timings ?? {};
  const usage = source.usage ?? null;
  const totalMs = num(timings.totalMs);
  const firstToken = num(timings.firstTokenMs);
  const firstByte = num(timings.ttfbMs);
  const firstTokenMs = firstToken ?? firstByte;
  const inputTokens = usage ? num(usage.prompt_tokens) : null;
  const outputTokens = usage ? num(usage.completion_tokens) : null;
  const reasoningTokens = usage ? reasoningOf(source.endpoint ?? null, usage) : null;
  const generated = outputTokens === null ? null : outputTokens + (reasoningTokens ?? 0);
  // A stream's rate runs from its first token; a plain answer's (all at once) over the whole request.
  const window = totalMs === null ? null : totalMs - (firstToken ?? 0);
  return {
    firstTokenMs,
    firstTokenIsFirstByte: firstToken === null && firstByte !== null,
    tokensPerSecond: generated !== null && generated > 0 && window !== null && window > 0 ? (generated * 1000) / window : null,
    totalMs,
    inputTokens,
    outputTokens,
    reasoningTokens,
    costTicks: num(source.costTicks) ?? (usage && usage.cost_in_usd_ticks > 0 ? usage.cost_in_usd_ticks : null),
  };
}

/**
 * Reasoning tokens when the service reports them apart. Messages' usage has only output tokens
 * (thinking counted in them), so 0 there would be a claim the service never made.
 */
function reasoningOf(endpoint: Endpoint | null, usage: ChatUsage): number | null {
  if (endpoint && endpointInfo(endpoint)?.output === 'messages') return null;
  return num(usage.completion_tokens_details?.reasoning_tokens);
}

/** `42.1 tok/s`, or "—". */
export function formatTokensPerSecond(rate: number | null): string {
  if (rate === null) return '—';
  return `${rate.toFixed(rate < 100 ? 1 : 0)} tok/s`;
}
