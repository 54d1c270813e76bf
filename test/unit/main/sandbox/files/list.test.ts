import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILTER_FIELDS, joinFilters, printFilter, type Comparator, type FilterExpr, type FilterFieldName } from '../../../../../shared/aip160';
import { compileFileFilter } from '../../../../../main/sandbox/files/filter';
import { listPage, parseListQuery } from '../../../../../main/sandbox/files/list';
import type { FileRecord } from '../../../../../main/sandbox/files/store';

const T0 = Date.UTC(2026, 10, 24, 10, 0, 0);
const NAMES = ['a.txt', 'A.TXT', 'ab.png', 'b a.pdf', 'report.pdf', 'Report 2.txt', 'zz'];
const TYPES = ['text/plain', 'image/png', 'IMAGE/PNG', 'application/pdf'];

const recordArb = fc.record({
  filename: fc.constantFrom(...NAMES),
  bytes: fc.nat(50),
  createdOffsetMs: fc.nat(10_000),
  expiresOffset: fc.option(fc.nat(20), { nil: null }),
  contentType: fc.constantFrom(...TYPES),
  userDefinedId: fc.option(fc.constantFrom('u1', 'u2'), { nil: null }),
});

function toRecords(specs: Array<fc.RecordValue<typeof recordArb> extends infer R ? R : never>): FileRecord[] {
  return specs.map((s, i) => ({
    id: `file_${String(i).padStart(4, '0')}`,
    team: 'team-a',
    filename: s.filename,
    bytes: s.bytes,
    createdMs: T0 + s.createdOffsetMs,
    expiresAt: s.expiresOffset === null ? null : T0 / 1000 + s.expiresOffset,
    contentType: s.contentType,
    purpose: '',
    userDefinedId: s.userDefinedId,
    seq: i,
    publicUrl: null,
  }));
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
const valueArb: Record<FilterFieldName, fc.Arbitrary<string>> = {
  name: fc.constantFrom('a', 'A.TXT', 'report', 'b a.pdf', 'png', 'zz', 'x'),
  file_name: fc.constantFrom('a.txt', 'REPORT', 'zz', ' '),
  file_id: fc.constantFrom('file_0000', 'file_0003', 'file_9999'),
  size_bytes: fc.nat(50).map(String),
  content_type: fc.constantFrom('image', 'image/png', 'TEXT/PLAIN', 'pdf'),
  created_at: fc.nat(12).map((s) => iso(T0 / 1000 + s)),
  expires_at: fc.nat(22).map((s) => iso(T0 / 1000 + s)),
  upload_status: fc.constant('Complete'),
  user_defined_id: fc.constantFrom('u1', 'u2', 'u3'),
};
const restrictionArb: fc.Arbitrary<FilterExpr> = fc
  .constantFrom(...(Object.keys(FILTER_FIELDS) as FilterFieldName[]))
  .chain((field) =>
    fc.record({ op: fc.constantFrom(...FILTER_FIELDS[field].ops), value: valueArb[field] }).map(({ op, value }) => ({ kind: 'restriction' as const, field, op, value })),
  );
const exprArb: fc.Arbitrary<FilterExpr> = fc.letrec<{ expr: FilterExpr }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    restrictionArb,
    tie('expr').map((operand) => ({ kind: 'not' as const, operand })),
    fc.tuple(fc.constantFrom('and' as const, 'or' as const), fc.array(tie('expr'), { minLength: 2, maxLength: 3 })).map(([kind, ops]) => joinFilters(kind, ops)),
  ),
})).expr;

/** The reference: the spec's words, read literally, one file at a time. */
function matches(e: FilterExpr, f: FileRecord): boolean {
  if (e.kind === 'not') return !matches(e.operand, f);
  if (e.kind === 'and') return e.operands.every((o) => matches(o, f));
  if (e.kind === 'or') return e.operands.some((o) => matches(o, f));
  const cmp = (a: number | null, b: number, op: Comparator): boolean => {
    if (a === null) return false;
    return { '=': a === b, '!=': a !== b, '>': a > b, '>=': a >= b, '<': a < b, '<=': a <= b, ':': false }[op];
  };
  const text = (a: string | null, op: Comparator, ci: boolean): boolean => {
    if (a === null) return false;
    if (op === ':') return a.toLowerCase().includes(e.value.toLowerCase());
    const eq = ci ? a.toLowerCase() === e.value.toLowerCase() : a === e.value;
    return op === '=' ? eq : !eq;
  };
  switch (e.field) {
    case 'name':
    case 'file_name':
      return text(f.filename, e.op, false);
    case 'file_id':
      return text(f.id, e.op, false);
    case 'user_defined_id':
      return text(f.userDefinedId, e.op, false);
    case 'content_type':
      return text(f.contentType, e.op, true);
    case 'upload_status':
      return text('Complete', e.op, false);
    case 'size_bytes':
      return cmp(f.bytes, Number(e.value), e.op);
    case 'created_at':
      return cmp(Math.floor(f.createdMs / 1000), Date.parse(e.value) / 1000, e.op);
    case 'expires_at':
      return cmp(f.expiresAt, Date.parse(e.value) / 1000, e.op);
  }
}

const KEY: Record<string, (f: FileRecord) => number | string> = { created_at: (f) => f.createdMs, filename: (f) => f.filename, size: (f) => f.bytes };

describe('sandbox/files/list', () => {
  it('walks every page of a filtered, sorted listing to exactly the reference answer (property)', () => {
    fc.assert(
      fc.property(
        fc.array(recordArb, { maxLength: 30 }),
        exprArb,
        fc.constantFrom('created_at', 'filename', 'size'),
        fc.constantFrom('asc', 'desc'),
        fc.integer({ min: 1, max: 7 }),
        (specs, expr, sortBy, order, limit) => {
          const records = toRecords(specs);
          const text = printFilter(expr);
          const q = parseListQuery(new URLSearchParams({ sort_by: sortBy, order, limit: String(limit), filter: text }));
          const keep = compileFileFilter(q.filter ?? '');
          const got: string[] = [];
          let cursor: FileRecord | null = null;
          for (;;) {
            const { page, token } = listPage(records, q, keep, cursor);
            got.push(...page.map((r) => r.id));
            if (page.length < limit) break;
            cursor = records.find((r) => r.id === token) ?? null;
          }
          const key = KEY[sortBy];
          const expected = records
            .filter((r) => matches(expr, r))
            .sort((a, b) => {
              const ka = key(a);
              const kb = key(b);
              const c = ka < kb ? -1 : ka > kb ? 1 : a.seq - b.seq;
              return order === 'asc' ? c : -c;
            })
            .map((r) => r.id);
          expect(got, text).toEqual(expected);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('picks the first page of a large listing without sorting it all, in the same order', () => {
    const records = toRecords(Array.from({ length: 1000 }, (_, i) => ({ filename: NAMES[i % 7], bytes: (i * 37) % 101, createdOffsetMs: i, expiresOffset: null, contentType: 'text/plain', userDefinedId: null })));
    const q = parseListQuery(new URLSearchParams({ sort_by: 'size', limit: '10' }));
    const { page } = listPage(records, q, () => true, null);
    const reference = [...records].sort((a, b) => b.bytes - a.bytes || b.seq - a.seq).slice(0, 10);
    expect(page.map((r) => r.id)).toEqual(reference.map((r) => r.id));
  });
});
