import { describe, expect, it } from 'vitest';
import { ftsMatchQuery } from '../../../../main/store/fts-query';

describe('fts-query', () => {
  describe('ftsMatchQuery()', () => {
    it('quotes each word, ANDs them and prefix-matches the last', () => {
      expect(ftsMatchQuery('rust borrow check')).toBe('"rust" "borrow" "check"*');
    });

    it('does not prefix-match when the user finished the last word with a space', () => {
      expect(ftsMatchQuery('rust borrow ')).toBe('"rust" "borrow"');
    });

    it('keeps a quoted phrase as one phrase without a prefix', () => {
      expect(ftsMatchQuery('"exact words" more')).toBe('"exact words" "more"*');
      expect(ftsMatchQuery('more "exact words"')).toBe('"more" "exact words"');
    });

    it('treats an unclosed quote as a phrase to the end', () => {
      expect(ftsMatchQuery('say "hello wor')).toBe('"say" "hello wor"');
    });

    it('turns FTS operators and syntax into literal terms', () => {
      expect(ftsMatchQuery('NEAR(a b) OR -x col:y')).toBe('"NEAR(a" "b)" "OR" "-x" "col:y"*');
    });

    it('drops terms with no letter or digit, and returns null when nothing is left', () => {
      expect(ftsMatchQuery('* - ( ) hello')).toBe('"hello"*');
      expect(ftsMatchQuery('  * -- "" ')).toBeNull();
      expect(ftsMatchQuery('')).toBeNull();
    });

    it('keeps letters of any script', () => {
      expect(ftsMatchQuery('café 東京')).toBe('"café" "東京"*');
    });
  });
});
