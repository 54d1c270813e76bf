import { describe, expect, it } from 'vitest';
import { costInTicks } from '../../../../../shared/cost';
import type { TextCompletion } from '../../../../../shared/wire/completions';
import { findLanguageModel } from '../../../../../main/sandbox/catalogue';
import { countTokens } from '../../../../../main/sandbox/generate/tokenizer';
import { endpoint, useHarness } from '../harness';

const h = useHarness();

const base = { model: 'svc-4', prompt: 'Write about harbours' };

const { answer: completion, errorOf } = endpoint<TextCompletion>(h, '/v1/completions', base);

describe('sandbox/routes/completions', () => {
  describe('POST /v1/completions', () => {
    it('answers a text_completion with one choice and chat-shaped usage with cost', async () => {
      const c = await completion({});
      expect(c).toMatchObject({ object: 'text_completion', model: 'svc-4', system_fingerprint: 'fp_5a1e4b7c2d' });
      expect(c.choices).toHaveLength(1);
      expect(c.choices[0]).toMatchObject({ index: 0, finish_reason: 'stop', logprobs: null });
      expect(c.choices[0].text).toMatch(/synthetic/i);
      const u = c.usage;
      expect(u.prompt_tokens).toBe(countTokens(base.prompt));
      expect(u.total_tokens).toBe(u.prompt_tokens + u.completion_tokens);
      expect(u.cost_in_usd_ticks).toBe(costInTicks(findLanguageModel('svc-4')!, { promptTokens: u.prompt_tokens, cachedTokens: u.prompt_tokens_details.cached_tokens, completionTokens: u.completion_tokens }));
    });

    it('gives each prompt n choices, indexed prompt-major (prompt i, choice j -> i*n + j)', async () => {
      const c = await completion({ prompt: ['Say one', 'Say two', 'Say three'], n: 2 });
      expect(c.choices.map((x) => [x.index, x.text])).toEqual([
        [0, 'one'],
        [1, 'one'],
        [2, 'two'],
        [3, 'two'],
        [4, 'three'],
        [5, 'three'],
      ]);
      expect(c.usage.completion_tokens).toBe(6 * 1);
    });

    it('prepends the prompt with echo, without counting it as completion', async () => {
      const c = await completion({ prompt: 'Say "yes"', echo: true });
      expect(c.choices[0].text).toBe('Say "yes"yes');
      expect(c.usage.completion_tokens).toBe(1);
    });

    it('cuts at the first stop sequence (finish stop) and at max_tokens (finish length)', async () => {
      const stopped = await completion({ prompt: 'Say "a, b; c"', stop: [';', ','] });
      expect(stopped.choices[0]).toMatchObject({ text: 'a', finish_reason: 'stop' });
      const single = await completion({ prompt: 'Say "a, b; c"', stop: ';' });
      expect(single.choices[0].text).toBe('a, b');
      const cut = await completion({ max_tokens: 4 });
      expect(cut.choices[0].finish_reason).toBe('length');
      expect(cut.usage.completion_tokens).toBe(4);
      expect((await completion({})).choices[0].text.startsWith(cut.choices[0].text)).toBe(true);
    });

    it('is deterministic for a seed, and differs across seeds', async () => {
      const a = await completion({ seed: 1, prompt: 'Describe rivers' });
      const b = await completion({ seed: 1, prompt: 'Describe rivers' });
      const c = await completion({ seed: 2, prompt: 'Describe rivers' });
      expect(b.choices[0].text).toBe(a.choices[0].text);
      expect(c.choices[0].text).not.toBe(a.choices[0].text);
    });

    it('makes all n choices identical at temperature 0', async () => {
      const c = await completion({ n: 3, temperature: 0 });
      expect(new Set(c.choices.map((x) => x.text)).size).toBe(1);
    });

    it('returns the legacy logprobs object when asked, covering the echoed prompt too', async () => {
      const c = await completion({ prompt: 'Say "north wind"', echo: true, logprobs: 2 });
      const lp = c.choices[0].logprobs!;
      expect(lp.tokens.join('')).toBe(c.choices[0].text);
      expect(lp.token_logprobs).toHaveLength(lp.tokens.length);
      expect(lp.token_logprobs.every((x) => x <= 0)).toBe(true);
      expect(lp.top_logprobs!.every((alts) => Object.keys(alts).length === 2)).toBe(true);
      lp.tokens.forEach((t, i) => expect(lp.top_logprobs![i][t]).toBe(lp.token_logprobs[i]));
      expect(lp.text_offset[0]).toBe(0);
      lp.tokens.slice(1).forEach((_, i) => expect(lp.text_offset[i + 1]).toBe(lp.text_offset[i] + lp.tokens[i].length));
      const zero = await completion({ logprobs: 0 });
      expect(zero.choices[0].logprobs!.top_logprobs).toBeNull();
    });

    it('accepts the unsupported best_of, penalties, logit_bias, suffix and user without changing the answer', async () => {
      const a = await completion({ seed: 9 });
      const b = await completion({ seed: 9, best_of: 2, frequency_penalty: 1, presence_penalty: -1, logit_bias: { '50256': -100 }, suffix: '!', user: 'u-7' });
      expect(b.choices).toEqual(a.choices);
    });

    it('refuses the reasoning model with a 400 naming the endpoints to use', async () => {
      expect(await errorOf({ model: 'svc-mini' })).toEqual({
        status: 400,
        error: 'svc-mini is a reasoning model and does not support /v1/completions; use /v1/chat/completions or /v1/responses',
      });
    });

    it('answers 404 for an unknown model, 422 for a wrong shape and 400 for a broken rule', async () => {
      expect(await errorOf({ model: 'svc-x' })).toEqual({ status: 404, error: 'The model svc-x does not exist or your team does not have access to it.' });
      expect(await errorOf({ prompt: 5 })).toEqual({ status: 422, error: 'prompt must be a string or an array of strings' });
      expect(await errorOf({ stop: ['a', 'b', 'c', 'd', 'e'] })).toEqual({ status: 400, error: 'stop must have at most 4 sequences (got 5)' });
      expect(await errorOf({ logprobs: 9 })).toEqual({ status: 400, error: 'logprobs must be between 0 and 5' });
    });
  });
});
