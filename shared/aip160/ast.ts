/**
 * The tree of a parsed AIP-160 filter. It records meaning, not spelling: `-x` and `NOT x` are the
 * same node, an implicit sequence (`a b`) is an `and`, and nested groups of the same kind are
 * flattened (`(a AND b) AND c` is one `and` of three), so two filters that mean the same thing by
 * AIP-160's rules usually give equal trees and `printFilter` has one canonical text to produce.
 */
import type { Comparator, FilterFieldName } from './fields';

/** `field op value`, with `value` as written (quotes removed, escapes resolved) and already validated. */
export interface FilterRestriction {
  kind: 'restriction';
  field: FilterFieldName;
  op: Comparator;
  value: string;
}

/** All operands hold (explicit `AND` or juxtaposition). Always two or more operands, none an `and`. */
export interface FilterAnd {
  kind: 'and';
  operands: FilterExpr[];
}

/** Any operand holds. Always two or more operands, none an `or`. */
export interface FilterOr {
  kind: 'or';
  operands: FilterExpr[];
}

/** `NOT x` or `-x`. */
export interface FilterNot {
  kind: 'not';
  operand: FilterExpr;
}

/** A parsed filter expression. */
export type FilterExpr = FilterRestriction | FilterAnd | FilterOr | FilterNot;

/**
 * Joins operands into one `and`/`or` the way the parser does: a single operand stands alone and
 * nested groups of the same kind are flattened. Anything building trees (the app's filter
 * builder) should use it so its trees equal what parsing their printed text gives.
 */
export function joinFilters(kind: 'and' | 'or', operands: FilterExpr[]): FilterExpr {
  if (operands.length === 1) return operands[0];
  return { kind, operands: operands.flatMap((o) => (o.kind === kind ? o.operands : [o])) };
}
