/**
 * The model behind the app's filter builder: groups of `field op value` rows, each group joined
 * by AND or OR and optionally negated, the groups joined together. `buildFilter` checks every
 * row with the same rules as the parser and produces text that `parseFilter` accepts (values
 * quoted as needed), or says which rows are wrong.
 */
import { joinFilters, type FilterExpr } from './ast';
import { FILTER_FIELDS, checkFieldValue, type Comparator, type FilterFieldName } from './fields';
import { printFilter } from './printer';

/** One builder row. */
export interface FilterRow {
  field: FilterFieldName;
  op: Comparator;
  value: string;
}

/** Rows joined by `combine`; `negate` wraps the whole group in NOT. */
export interface FilterGroup {
  combine: 'AND' | 'OR';
  negate?: boolean;
  rows: FilterRow[];
}

/** A row the builder cannot turn into filter text, by group and row index. */
export interface FilterRowProblem {
  group: number;
  row: number;
  message: string;
}

/** The built filter (`text` is '' and `expr` null when there are no rows) or the rows to fix. */
export type BuildFilterResult =
  | { ok: true; text: string; expr: FilterExpr | null }
  | { ok: false; problems: FilterRowProblem[] };

/** Whitespace means nothing in numbers, timestamps and statuses, so the builder trims them. */
function rowValue(row: FilterRow): string {
  const type = FILTER_FIELDS[row.field]?.type;
  return type === 'integer' || type === 'timestamp' || type === 'status' ? row.value.trim() : row.value;
}

function rowProblem(row: FilterRow): string | null {
  const spec = FILTER_FIELDS[row.field];
  if (!spec) return `unknown field ${JSON.stringify(row.field)}`;
  if (!spec.ops.includes(row.op)) return `"${row.op}" is not allowed on ${row.field}; use one of ${spec.ops.join(' ')}`;
  const value = rowValue(row);
  if (value === '') return `enter a value for ${row.field}`;
  return checkFieldValue(row.field, value);
}

/** Filter text for the builder's groups, joined by `combineGroups`; empty groups are left out. */
export function buildFilter(groups: FilterGroup[], combineGroups: 'AND' | 'OR' = 'AND'): BuildFilterResult {
  const problems: FilterRowProblem[] = [];
  const parts: FilterExpr[] = [];
  groups.forEach((g, gi) => {
    const rows: FilterExpr[] = [];
    g.rows.forEach((row, ri) => {
      const problem = rowProblem(row);
      if (problem) problems.push({ group: gi, row: ri, message: problem });
      else rows.push({ kind: 'restriction', field: row.field, op: row.op, value: rowValue(row) });
    });
    if (rows.length === 0) return;
    const joined = joinFilters(g.combine === 'AND' ? 'and' : 'or', rows);
    parts.push(g.negate ? { kind: 'not', operand: joined } : joined);
  });
  if (problems.length > 0) return { ok: false, problems };
  if (parts.length === 0) return { ok: true, text: '', expr: null };
  const expr = joinFilters(combineGroups === 'AND' ? 'and' : 'or', parts);
  return { ok: true, text: printFilter(expr), expr };
}

/** The builder's state for a filter: its groups and how they are joined. */
export interface FilterBuilderState {
  groups: FilterGroup[];
  combine: 'AND' | 'OR';
}

function rowOf(expr: FilterExpr): FilterRow | null {
  return expr.kind === 'restriction' ? { field: expr.field, op: expr.op, value: expr.value } : null;
}

/** A group for one operand: a restriction, an AND/OR of restrictions, or NOT of either. */
function groupOf(expr: FilterExpr, negate = false): FilterGroup | null {
  if (expr.kind === 'not') return negate ? null : groupOf(expr.operand, true);
  const single = rowOf(expr);
  if (single) return { combine: 'AND', negate, rows: [single] };
  if (expr.kind !== 'and' && expr.kind !== 'or') return null;
  const rows = expr.operands.map(rowOf);
  if (rows.some((r) => r === null)) return null;
  return { combine: expr.kind === 'and' ? 'AND' : 'OR', negate, rows: rows as FilterRow[] };
}

/**
 * The builder's groups for a parsed filter, so text typed in the raw box can be shown as rows;
 * null when the filter is shaped beyond "groups of rows" (then only the raw box can edit it).
 * `buildFilter` on the result gives back the same tree.
 */
export function groupsFromFilter(expr: FilterExpr | null): FilterBuilderState | null {
  if (expr === null) return { groups: [], combine: 'AND' };
  const whole = groupOf(expr);
  if (whole) return { groups: [whole], combine: 'AND' };
  if (expr.kind !== 'and' && expr.kind !== 'or') return null;
  const groups = expr.operands.map((o) => groupOf(o));
  if (groups.some((g) => g === null)) return null;
  return { groups: groups as FilterGroup[], combine: expr.kind === 'and' ? 'AND' : 'OR' };
}
