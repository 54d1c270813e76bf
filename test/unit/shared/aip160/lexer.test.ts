import { describe, expect, it } from 'vitest';
import { lexFilter } from '../../../../shared/aip160/lexer';

const brief = (text: string) => lexFilter(text).map((t) => [t.kind, t.value, t.column, t.length]);

describe('aip160/lexer', () => {
  describe('lexFilter()', () => {
    it('gives kinds, values and 1-based columns, reading words after a comparator as values', () => {
      expect(brief('-name:a:b AND (created_at>=2026-11-24T10:00:00Z)')).toEqual([
        ['minus', '-', 1, 1],
        ['word', 'name', 2, 4],
        ['op', ':', 6, 1],
        ['word', 'a:b', 7, 3],
        ['and', 'AND', 11, 3],
        ['lparen', '(', 15, 1],
        ['word', 'created_at', 16, 10],
        ['op', '>=', 26, 2],
        ['word', '2026-11-24T10:00:00Z', 28, 20],
        ['rparen', ')', 48, 1],
        ['eof', '', 49, 0],
      ]);
    });

    it('reads keywords only in upper case, and a dash inside a word as part of it', () => {
      expect(brief('NOT x-y OR and')).toEqual([
        ['not', 'NOT', 1, 3],
        ['word', 'x-y', 5, 3],
        ['or', 'OR', 9, 2],
        ['word', 'and', 12, 3],
        ['eof', '', 15, 0],
      ]);
    });

    it('spans a quoted string including its quotes and unescapes its value', () => {
      expect(brief('name = "a \\"b\\""')).toEqual([
        ['word', 'name', 1, 4],
        ['op', '=', 6, 1],
        ['string', 'a "b"', 8, 9],
        ['eof', '', 17, 0],
      ]);
    });

    it('stops at the first lexing problem with an error token', () => {
      const tokens = lexFilter('name == x AND "open');
      expect(tokens.map((t) => t.kind)).toEqual(['word', 'error']);
      expect(tokens[1]).toMatchObject({ column: 6, length: 2, message: 'unknown operator "=="; use one of = != > >= < <= :' });
    });
  });
});
