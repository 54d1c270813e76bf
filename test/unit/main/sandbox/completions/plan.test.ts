import { describe, expect, it } from 'vitest';
import { findLanguageModel, type LanguageEntry } from '../../../../../main/sandbox/catalogue';
import { honoursLogprobs, legacyLogprobs, planCompletions } from '../../../../../main/sandbox/completions/plan';
import { Rng } from '../../../../../main/sandbox/generate/rng';

const svc4 = findLanguageModel('svc-4')!;
const withVersion = (version: string): LanguageEntry => ({ ...svc4, version });

describe('sandbox/completions/plan', () => {
  describe('honoursLogprobs()', () => {
    it('is true before version 4.20 and false from it on (spec: newer versions ignore logprobs)', () => {
      expect(['3.0.0', '4.0.0', '4.19.9'].map((v) => honoursLogprobs(withVersion(v)))).toEqual([true, true, true]);
      expect(['4.20.0', '4.21', '5.0.0'].map((v) => honoursLogprobs(withVersion(v)))).toEqual([false, false, false]);
    });
  });

  describe('planCompletions()', () => {
    it('leaves logprobs null on a model version that ignores them', () => {
      const [choice] = planCompletions({ model: 'x', prompt: 'Say hi', logprobs: 3 }, withVersion('4.20.0'));
      expect(choice.logprobs).toBeNull();
      const [honoured] = planCompletions({ model: 'x', prompt: 'Say hi', logprobs: 3 }, svc4);
      expect(honoured.logprobs?.tokens).toEqual(['hi']);
    });
  });

  describe('legacyLogprobs()', () => {
    it('gives offsets from the start and top alternatives as token -> logprob maps', () => {
      const lp = legacyLogprobs(['Hello', ' world'], new Rng(1), 2, 0);
      expect(lp.tokens).toEqual(['Hello', ' world']);
      expect(lp.text_offset).toEqual([0, 5]);
      expect(lp.top_logprobs!.map((m) => Object.keys(m).length)).toEqual([2, 2]);
      expect(lp.top_logprobs![0].Hello).toBe(lp.token_logprobs[0]);
    });
  });
});
