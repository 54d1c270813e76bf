import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { countTokens, tokenize } from '../../../../../main/sandbox/generate/tokenizer';

describe('sandbox/generate/tokenizer', () => {
  describe('tokenize()', () => {
    it('gives back the exact text when its tokens are joined', () => {
      fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        expect(tokenize(text).join('')).toBe(text);
      }));
    });

    it('keeps leading spaces on words, short words whole and long words in even pieces', () => {
      expect(tokenize('Hello, tide pools! synthetic')).toEqual(['Hello', ',', ' tide', ' pools', '!', ' syn', 'the', 'tic']);
    });
  });

  describe('countTokens()', () => {
    it('counts about one token per four characters of English prose', () => {
      const prose = 'The quick brown fox jumps over the lazy dog while the band plays on in the park. '.repeat(20);
      const ratio = prose.length / countTokens(prose);
      expect(ratio).toBeGreaterThan(3);
      expect(ratio).toBeLessThan(5);
      expect(countTokens('')).toBe(0);
    });
  });
});
