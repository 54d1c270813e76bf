import { describe, expect, it } from 'vitest';
import { formatTokensPerSecond, runMetrics } from '../../../shared/run-metrics';
import type { ChatUsage } from '../../../shared/wire/chat';

function usage(prompt: number, completion: number, reasoning: number | undefined, cost = 0): ChatUsage {
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion + (reasoning ?? 0),
    cost_in_usd_ticks: cost,
    num_sources_used: 0,
    prompt_tokens_details: { text_tokens: prompt, audio_tokens: 0, image_tokens: 0, cached_tokens: 0 },
    completion_tokens_details: reasoning === undefined
      ? (undefined as unknown as ChatUsage['completion_tokens_details'])
      : { reasoning_tokens: reasoning, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

describe('run-metrics', () => {
  describe('runMetrics()', () => {
    it('measures a stream from its first token: (output + reasoning) over the time after it', () => {
      const m = runMetrics({
        endpoint: 'chat.completions',
        timings: { startedAt: 0, ttfbMs: 100, firstTokenMs: 200, totalMs: 1_200 },
        usage: usage(10, 30, 20),
        costTicks: 5_000,
      });
      expect(m).toEqual({
        firstTokenMs: 200,
        firstTokenIsFirstByte: false,
        tokensPerSecond: 50,
        totalMs: 1_200,
        inputTokens: 10,
        outputTokens: 30,
        reasoningTokens: 20,
        costTicks: 5_000,
      });
    });

    it('falls back to the first byte, flagged, and rates over the whole run when the first token was not kept', () => {
      const m = runMetrics({ endpoint: 'chat.completions', timings: { startedAt: 0, ttfbMs: 400, totalMs: 2_000 }, usage: usage(1, 40, 0) });
      expect(m.firstTokenMs).toBe(400);
      expect(m.firstTokenIsFirstByte).toBe(true);
      expect(m.tokensPerSecond).toBe(20);
    });

    it('reports Messages reasoning as unknown (thinking is inside output_tokens), not 0', () => {
      const m = runMetrics({ endpoint: 'messages', timings: { totalMs: 1_000 }, usage: usage(5, 50, 0) });
      expect(m.reasoningTokens).toBeNull();
      expect(m.outputTokens).toBe(50);
    });

    it('reports reasoning as unknown when the usage has no details for it', () => {
      expect(runMetrics({ endpoint: 'chat.completions', usage: usage(5, 5, undefined) }).reasoningTokens).toBeNull();
    });

    it('leaves every figure unknown for a run with no usage and no timings (failed before an answer)', () => {
      expect(runMetrics({ endpoint: 'chat.completions', timings: { startedAt: 0, ttfbMs: null, totalMs: 0 }, usage: null, costTicks: null })).toEqual({
        firstTokenMs: null,
        firstTokenIsFirstByte: false,
        tokensPerSecond: null,
        totalMs: 0,
        inputTokens: null,
        outputTokens: null,
        reasoningTokens: null,
        costTicks: null,
      });
    });

    it("takes the service's own cost from the usage when no cost was recorded, but not a 0 placeholder", () => {
      expect(runMetrics({ usage: usage(1, 1, 0, 77) }).costTicks).toBe(77);
      expect(runMetrics({ usage: usage(1, 1, 0, 0) }).costTicks).toBeNull();
    });
  });

  describe('formatTokensPerSecond()', () => {
    it('shows one decimal below 100 and none above, and a dash when unknown', () => {
      expect([formatTokensPerSecond(42.123), formatTokensPerSecond(250.6), formatTokensPerSecond(null)]).toEqual(['42.1 tok/s', '251 tok/s', '—']);
    });
  });
});
