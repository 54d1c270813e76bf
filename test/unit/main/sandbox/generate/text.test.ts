import { describe, expect, it } from 'vitest';
import { Rng } from '../../../../../main/sandbox/generate/rng';
import { echoRequest, synthAnswer, synthReasoning, synthToolFollowUp } from '../../../../../main/sandbox/generate/text';
import { countTokens } from '../../../../../main/sandbox/generate/tokenizer';

describe('sandbox/generate/text', () => {
  describe('synthAnswer()', () => {
    it('says it is synthetic, names the topic and reaches the target length', () => {
      const text = synthAnswer('How do volcanoes erupt?', new Rng(1), 120);
      expect(text).toMatch(/synthetic/i);
      expect(text).toContain('volcanoes');
      expect(countTokens(text)).toBeGreaterThanOrEqual(120);
    });

    it('is deterministic for a seed and different for another', () => {
      expect(synthAnswer('Tell me about tides', new Rng(5), 100)).toBe(synthAnswer('Tell me about tides', new Rng(5), 100));
      expect(synthAnswer('Tell me about tides', new Rng(5), 100)).not.toBe(synthAnswer('Tell me about tides', new Rng(6), 100));
    });

    it('uses markdown blocks (lists, headings or code) across answers', () => {
      const all = Array.from({ length: 20 }, (_, s) => synthAnswer('Explain caching', new Rng(s), 200)).join('\n');
      expect(all).toMatch(/^(- |\d\. )/m);
      expect(all).toMatch(/^### /m);
      expect(all).toMatch(/^```\w+$/m);
    });
  });

  describe('synthReasoning()', () => {
    it('is empty for zero tokens and starts with the question otherwise', () => {
      expect(synthReasoning('Why is the sky blue?', new Rng(1), 0)).toBe('');
      expect(synthReasoning('Why is the sky blue?', new Rng(1), 30)).toMatch(/^First, the question is about sky blue\./);
    });
  });

  describe('synthToolFollowUp()', () => {
    it('quotes the tool result', () => {
      expect(synthToolFollowUp('weather', '{"temp":21}', 'weather in Oslo?', new Rng(1))).toContain('The `weather` tool returned: {"temp":21}');
    });
  });

  describe('echoRequest()', () => {
    it('returns what a "say" prompt asks for and null otherwise', () => {
      expect(echoRequest('Say "hello world"')).toBe('hello world');
      expect(echoRequest('Reply with: OK')).toBe('OK');
      expect(echoRequest('What should I say?')).toBeNull();
    });
  });
});
