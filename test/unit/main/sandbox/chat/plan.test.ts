import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../../../shared/wire/chat';
import { findLanguageModel } from '../../../../../main/sandbox/catalogue';
import { planChoices, requestSeed } from '../../../../../main/sandbox/chat/plan';

const svc4 = findLanguageModel('svc-4')!;
const mini = findLanguageModel('svc-3-mini')!;
const base: ChatRequest = { model: 'svc-4', messages: [{ role: 'user', content: 'Explain how bridges carry load' }], seed: 3 };

describe('sandbox/chat/plan', () => {
  describe('requestSeed()', () => {
    it('ignores delivery-only fields and aliases, and changes with what the model would see', () => {
      const seed = requestSeed(base, svc4);
      expect(requestSeed({ ...base, model: 'svc-4-latest', stream: true, n: 3, stop: ['x'], max_tokens: 5, user: 'u', logprobs: true }, svc4)).toBe(seed);
      expect(requestSeed({ ...base, seed: 4 }, svc4)).not.toBe(seed);
      expect(requestSeed({ ...base, temperature: 0.3 }, svc4)).not.toBe(seed);
      expect(requestSeed({ ...base, messages: [{ role: 'user', content: 'Explain how bridges carry loads' }] }, svc4)).not.toBe(seed);
    });
  });

  describe('planChoices()', () => {
    it('plans the same content for the same request', () => {
      expect(planChoices(base, svc4)).toEqual(planChoices(base, svc4));
    });

    it('cuts at the earliest stop sequence and reports stop', () => {
      const full = planChoices(base, svc4)[0].content!;
      const late = full.slice(60, 66);
      const early = full.slice(20, 25);
      const [cut] = planChoices({ ...base, stop: [late, early] }, svc4);
      expect(cut.content).toBe(full.slice(0, Math.min(full.indexOf(late), full.indexOf(early))));
      expect(cut.finishReason).toBe('stop');
      expect(cut.contentTokens.join('')).toBe(cut.content);
    });

    it('keeps exactly max_completion_tokens tokens and reports length', () => {
      const [c] = planChoices({ ...base, max_completion_tokens: 7 }, svc4);
      expect(c.contentTokens).toHaveLength(7);
      expect(c.finishReason).toBe('length');
      expect(planChoices(base, svc4)[0].content!.startsWith(c.content!)).toBe(true);
    });

    it('prefers max_completion_tokens over the deprecated max_tokens', () => {
      const [c] = planChoices({ ...base, max_completion_tokens: 4, max_tokens: 9 }, svc4);
      expect(c.contentTokens).toHaveLength(4);
    });

    it('adds reasoning only for the reasoning model, none for effort none', () => {
      expect(planChoices(base, svc4)[0].reasoning).toBe('');
      expect(planChoices({ ...base, model: 'svc-3-mini' }, mini)[0].reasoningTokens.length).toBeGreaterThanOrEqual(20);
      expect(planChoices({ ...base, model: 'svc-3-mini', reasoning_effort: 'none' }, mini)[0].reasoning).toBe('');
    });
  });
});
