import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutText } from '../../../../../main/sandbox/messages/cut';
import { tokenize } from '../../../../../main/sandbox/generate/tokenizer';

describe('sandbox/messages/cut', () => {
  describe('cutText()', () => {
    it('ends before the earliest stop sequence and names it', () => {
      expect(cutText('one, two; three', [';', ','], 100)).toEqual({ text: 'one', tokens: ['one'], reason: 'stop', stopSequence: ',' });
    });

    it('prefers the sequence listed first when two match at the same place', () => {
      expect(cutText('abc', ['bc', 'b'], 100).stopSequence).toBe('bc');
    });

    it('cuts at the token budget when no stop sequence comes first', () => {
      const cut = cutText('alpha beta gamma delta', [], 2);
      expect(cut).toEqual({ text: 'alpha beta', tokens: ['alpha', ' beta'], reason: 'length', stopSequence: null });
    });

    it('reports length when the text before the stop sequence is still over budget', () => {
      expect(cutText('alpha beta gamma STOP', ['STOP'], 1)).toMatchObject({ text: 'alpha', reason: 'length', stopSequence: null });
    });

    it('returns the whole text when nothing ends it', () => {
      expect(cutText('all of it', ['zzz'], 10)).toEqual({ text: 'all of it', tokens: tokenize('all of it'), reason: 'end', stopSequence: null });
    });

    it('always returns a prefix of the input without the stop sequence in it, within budget', () => {
      fc.assert(
        fc.property(fc.string(), fc.array(fc.string({ minLength: 1, maxLength: 3 }), { maxLength: 4 }), fc.nat(50), (text, stops, budget) => {
          const cut = cutText(text, stops, budget);
          return (
            text.startsWith(cut.text) &&
            cut.tokens.join('') === cut.text &&
            cut.tokens.length <= budget &&
            (cut.reason !== 'stop' || (cut.stopSequence !== null && text.startsWith(cut.text + cut.stopSequence))) &&
            stops.every((s) => !cut.text.includes(s))
          );
        }),
      );
    });
  });
});
