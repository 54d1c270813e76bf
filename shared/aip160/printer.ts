/**
 * Prints a filter tree as AIP-160 text that parses back to the same tree. Values are left bare
 * when the lexer would read them back unchanged and quoted otherwise; an `or` inside an `and` is
 * parenthesised although AIP-160 would not need it, because most readers expect AND to bind
 * tighter and the parentheses cost nothing.
 */
import type { FilterExpr } from './ast';
import { isFilterKeyword, isFilterSpace, isOperatorChar } from './lexer';

const QUOTE_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r' };

/** True when `value` can be written without quotes after a comparator. */
function isBareValue(value: string): boolean {
  if (value === '' || isOperatorChar(value[0]) || isFilterKeyword(value)) return false;
  for (const c of value) {
    if (isFilterSpace(c) || c === '(' || c === ')' || c === '"') return false;
  }
  return true;
}

/** A value as filter text: bare when that reads back the same, otherwise double-quoted with escapes. */
export function printFilterValue(value: string): string {
  if (isBareValue(value)) return value;
  return `"${value.replace(/["\\\n\t\r]/g, (c) => QUOTE_ESCAPES[c])}"`;
}

function printOperand(expr: FilterExpr, parenthesise: boolean): string {
  const text = printFilter(expr);
  return parenthesise ? `(${text})` : text;
}

/** AIP-160 text for `expr`; `parseFilter(printFilter(e))` gives back `e` for any tree the parser produces. */
export function printFilter(expr: FilterExpr): string {
  switch (expr.kind) {
    case 'restriction': {
      const value = printFilterValue(expr.value);
      return expr.op === ':' ? `${expr.field}:${value}` : `${expr.field} ${expr.op} ${value}`;
    }
    case 'not':
      return `NOT ${printOperand(expr.operand, expr.operand.kind !== 'restriction')}`;
    case 'and':
      return expr.operands.map((o) => printOperand(o, o.kind === 'and' || o.kind === 'or')).join(' AND ');
    case 'or':
      return expr.operands.map((o) => printOperand(o, o.kind === 'and' || o.kind === 'or')).join(' OR ');
  }
}
