import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { FilterExpr } from '../../../../shared/aip160/ast';
import { parseFilter } from '../../../../shared/aip160/parser';
import { printFilter, printFilterValue } from '../../../../shared/aip160/printer';
import { filterTree, normalize } from './arbitraries';

const r = (field: string, op: string, value: string) => ({ kind: 'restriction', field, op, value }) as FilterExpr;

describe('aip160/printer', () => {
  describe('printFilterValue()', () => {
    it('leaves plain values bare and quotes the ones the lexer would read differently', () => {
      expect(printFilterValue('report.pdf')).toBe('report.pdf');
      expect(printFilterValue('2026-11-24T10:00:00Z')).toBe('2026-11-24T10:00:00Z');
      expect(printFilterValue('-x')).toBe('-x');
      expect(printFilterValue('and')).toBe('and');
      expect(printFilterValue('')).toBe('""');
      expect(printFilterValue('a b')).toBe('"a b"');
      expect(printFilterValue('AND')).toBe('"AND"');
      expect(printFilterValue(':x')).toBe('":x"');
      expect(printFilterValue('(x')).toBe('"(x"');
      expect(printFilterValue('say "hi"\\\n\t\r')).toBe('"say \\"hi\\"\\\\\\n\\t\\r"');
    });
  });

  describe('printFilter()', () => {
    it('writes : without spaces, other comparators with spaces, NOT before non-restrictions with parentheses', () => {
      const tree: FilterExpr = {
        kind: 'and',
        operands: [
          r('name', ':', 'a b'),
          { kind: 'or', operands: [r('size_bytes', '>=', '5'), { kind: 'not', operand: r('file_id', '=', 'f') }] },
          { kind: 'not', operand: { kind: 'and', operands: [r('name', '=', 'x'), r('name', '=', 'y')] } },
        ],
      };
      expect(printFilter(tree)).toBe('name:"a b" AND (size_bytes >= 5 OR NOT file_id = f) AND NOT (name = x AND name = y)');
    });

    it('parenthesises an AND inside an OR (required) and a NOT of a NOT', () => {
      const tree: FilterExpr = {
        kind: 'or',
        operands: [{ kind: 'and', operands: [r('name', ':', 'a'), r('name', ':', 'b')] }, { kind: 'not', operand: { kind: 'not', operand: r('name', ':', 'c') } }],
      };
      expect(printFilter(tree)).toBe('(name:a AND name:b) OR NOT (NOT name:c)');
      expect(parseFilter(printFilter(tree))).toEqual({ ok: true, expr: tree });
    });

    it('prints any tree as text that parses back to the same tree (property)', () => {
      fc.assert(
        fc.property(filterTree, (raw) => {
          const tree = normalize(raw);
          expect(parseFilter(printFilter(tree))).toEqual({ ok: true, expr: tree });
        }),
        { numRuns: 2000 },
      );
    });
  });
});
