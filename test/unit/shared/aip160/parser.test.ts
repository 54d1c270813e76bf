import { describe, expect, it } from 'vitest';
import type { FilterExpr } from '../../../../shared/aip160/ast';
import { parseFilter } from '../../../../shared/aip160/parser';

const r = (field: string, op: string, value: string) => ({ kind: 'restriction', field, op, value }) as FilterExpr;
const A = r('name', ':', 'a');
const B = r('name', ':', 'b');
const C = r('name', ':', 'c');

function tree(text: string): FilterExpr | null {
  const result = parseFilter(text);
  if (!result.ok) throw new Error(`${text}: ${result.error.message} at ${result.error.column}`);
  return result.expr;
}

describe('aip160/parser', () => {
  describe('parseFilter() precedence', () => {
    it('binds OR tighter than AND: a AND b OR c is a AND (b OR c)', () => {
      expect(tree('name:a AND name:b OR name:c')).toEqual({ kind: 'and', operands: [A, { kind: 'or', operands: [B, C] }] });
      expect(tree('name:a AND name:b OR name:c')).toEqual(tree('name:a AND (name:b OR name:c)'));
      expect(tree('name:a OR name:b AND name:c')).toEqual({ kind: 'and', operands: [{ kind: 'or', operands: [A, B] }, C] });
    });

    it('reads juxtaposition as AND, looser than OR and tighter than AND', () => {
      expect(tree('name:a name:b')).toEqual({ kind: 'and', operands: [A, B] });
      expect(tree('name:a name:b OR name:c')).toEqual({ kind: 'and', operands: [A, { kind: 'or', operands: [B, C] }] });
      expect(tree('name:a AND name:b name:c')).toEqual({ kind: 'and', operands: [A, B, C] });
    });

    it('binds NOT and - to the next restriction or parenthesis only', () => {
      expect(tree('NOT name:a OR name:b')).toEqual({ kind: 'or', operands: [{ kind: 'not', operand: A }, B] });
      expect(tree('-name:a name:b')).toEqual({ kind: 'and', operands: [{ kind: 'not', operand: A }, B] });
      expect(tree('NOT (name:a OR name:b)')).toEqual({ kind: 'not', operand: { kind: 'or', operands: [A, B] } });
      expect(tree('-(name:a)')).toEqual({ kind: 'not', operand: A });
    });

    it('flattens nested groups of the same kind and drops redundant parentheses', () => {
      expect(tree('(name:a AND name:b) AND name:c')).toEqual({ kind: 'and', operands: [A, B, C] });
      expect(tree('name:a OR (name:b OR name:c)')).toEqual({ kind: 'or', operands: [A, B, C] });
      expect(tree('((name:a))')).toEqual(A);
    });

    it('treats an empty or all-space filter as no filter', () => {
      expect(parseFilter('')).toEqual({ ok: true, expr: null });
      expect(parseFilter(' \t\n')).toEqual({ ok: true, expr: null });
    });
  });
});
