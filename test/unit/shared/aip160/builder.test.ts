import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildFilter, type FilterGroup, type FilterRow } from '../../../../shared/aip160/builder';
import { parseFilter } from '../../../../shared/aip160/parser';
import { restriction } from './arbitraries';

const row = (field: FilterRow['field'], op: FilterRow['op'], value: string): FilterRow => ({ field, op, value });

describe('aip160/builder', () => {
  describe('buildFilter()', () => {
    it('joins rows by their group’s combinator, negates groups and joins groups with AND by default', () => {
      const groups: FilterGroup[] = [
        { combine: 'OR', rows: [row('name', ':', 'q3 report'), row('name', ':', 'AND')] },
        { combine: 'AND', negate: true, rows: [row('content_type', ':', 'image/'), row('size_bytes', '>', ' 1024 ')] },
        { combine: 'AND', rows: [] },
      ];
      const built = buildFilter(groups);
      expect(built).toMatchObject({ ok: true, text: '(name:"q3 report" OR name:"AND") AND NOT (content_type:image/ AND size_bytes > 1024)' });
      expect(built.ok && parseFilter(built.text)).toEqual({ ok: true, expr: built.ok && built.expr });
    });

    it('joins groups with OR when asked, and flattens single-row groups', () => {
      const built = buildFilter(
        [
          { combine: 'AND', rows: [row('file_id', '=', 'file_1')] },
          { combine: 'OR', rows: [row('user_defined_id', '=', 'a'), row('user_defined_id', '=', 'b')] },
        ],
        'OR',
      );
      expect(built).toMatchObject({ ok: true, text: 'file_id = file_1 OR user_defined_id = a OR user_defined_id = b' });
    });

    it('gives empty text for no rows at all', () => {
      expect(buildFilter([])).toEqual({ ok: true, text: '', expr: null });
      expect(buildFilter([{ combine: 'AND', negate: true, rows: [] }])).toEqual({ ok: true, text: '', expr: null });
    });

    it('names each row it cannot build, by group and row', () => {
      const built = buildFilter([
        { combine: 'AND', rows: [row('name', ':', 'ok'), row('size_bytes', '>', 'big')] },
        { combine: 'OR', rows: [row('created_at', '<', ' '), row('size_bytes', ':', '5'), row('upload_status', '=', 'Done')] },
      ]);
      expect(built).toEqual({
        ok: false,
        problems: [
          { group: 0, row: 1, message: 'size_bytes must be a whole number of bytes, like 1048576; got "big"' },
          { group: 1, row: 0, message: 'enter a value for created_at' },
          { group: 1, row: 1, message: '":" is not allowed on size_bytes; use one of = != > >= < <=' },
          { group: 1, row: 2, message: 'upload_status can only be Complete; got "Done"' },
        ],
      });
    });

    it('always produces text that parses to the tree it reports (property)', () => {
      const group = fc.record({
        combine: fc.constantFrom('AND' as const, 'OR' as const),
        negate: fc.boolean(),
        rows: fc.array(
          restriction.map((r) => (r.kind === 'restriction' ? row(r.field, r.op, r.value) : row('name', ':', ''))),
          { maxLength: 4 },
        ),
      });
      fc.assert(
        fc.property(fc.array(group, { maxLength: 4 }), fc.constantFrom('AND' as const, 'OR' as const), (groups, combine) => {
          const built = buildFilter(groups, combine);
          // Generated values are valid except text fields' empty strings, which the builder refuses.
          if (!built.ok) {
            expect(built.problems.every((p) => p.message.startsWith('enter a value'))).toBe(true);
            return;
          }
          expect(parseFilter(built.text)).toEqual({ ok: true, expr: built.expr });
        }),
        { numRuns: 1500 },
      );
    });
  });
});
