import { describe, expect, it } from 'vitest';
import { ftsMatchQuery, matchExpression, parseSearch, prefixToken } from '../../../../main/store/fts-query';

describe('fts-query', () => {
  describe('ftsMatchQuery()', () => {
    it('quotes each word, ANDs them and prefix-matches the last', () => {
      expect(ftsMatchQuery('rust borrow check')).toBe('"rust" AND "borrow" AND "check"*');
    });

    it('does not prefix-match when the user finished the last word with a space', () => {
      expect(ftsMatchQuery('rust borrow ')).toBe('"rust" AND "borrow"');
    });

    it('keeps a quoted phrase as one phrase without a prefix', () => {
      expect(ftsMatchQuery('"exact words" more')).toBe('"exact words" AND "more"*');
      expect(ftsMatchQuery('more "exact words"')).toBe('"more" AND "exact words"');
    });

    it('treats an unclosed quote as a phrase to the end', () => {
      expect(ftsMatchQuery('say "hello wor')).toBe('"say" AND "hello wor"');
    });

    it('turns FTS operators and syntax into literal terms', () => {
      expect(ftsMatchQuery('NEAR(a b) OR -x col:y')).toBe('"NEAR(a" AND "b)" AND "OR" AND "-x" AND "col:y"*');
    });

    it('drops terms with no letter or digit, and returns null when nothing is left', () => {
      expect(ftsMatchQuery('* - ( ) hello')).toBe('"hello"*');
      expect(ftsMatchQuery('  * -- "" ')).toBeNull();
      expect(ftsMatchQuery('')).toBeNull();
    });

    it('keeps letters of any script', () => {
      expect(ftsMatchQuery('café 東京都')).toBe('"café" AND "東京都"*');
    });

    it('matches a last term shorter than three characters whole', () => {
      expect(ftsMatchQuery('rust is')).toBe('"rust" AND "is"');
    });
  });

  describe('parseSearch()', () => {
    it('separates the exact terms from the prefix', () => {
      expect(parseSearch('"a phrase" word optim')).toEqual({ exact: ['"a phrase"', '"word"'], prefix: 'optim' });
      expect(parseSearch('word done ')).toEqual({ exact: ['"word"', '"done"'], prefix: null });
    });
  });

  describe('prefixToken()', () => {
    it('folds case and accents the way the index stores tokens', () => {
      expect(prefixToken('RÉSUM')).toBe('resum');
    });

    it('refuses a prefix that spans several tokens', () => {
      expect(prefixToken('foo-ba')).toBeNull();
    });
  });

  describe('matchExpression()', () => {
    it('puts the expanded prefix terms in an OR group', () => {
      expect(matchExpression({ exact: ['"fast"'], prefix: 'optim' }, ['optimal', 'optimize'])).toBe('"fast" AND ("optimal" OR "optimize")');
    });

    it('falls back to FTS prefix syntax without an expansion', () => {
      expect(matchExpression({ exact: [], prefix: 'optim' }, [])).toBe('"optim"*');
    });
  });
});
