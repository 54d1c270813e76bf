import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { FilterExpr } from '../../../../shared/aip160/ast';
import { compileFilter, evaluateFilter, type FilterableFile } from '../../../../shared/aip160/evaluate';
import { parseFilter } from '../../../../shared/aip160/parser';
import { file, filterTree } from './arbitraries';

const base: FilterableFile = {
  name: 'Quarterly Report.PDF',
  fileId: 'file_1',
  sizeBytes: 1000,
  contentType: 'application/pdf',
  createdAt: 1_764_000_000, // 2025-11-24T16:00:00Z
  expiresAt: 1_764_086_400, // 2025-11-25T16:00:00Z
  uploadStatus: 'Complete',
  userDefinedId: 'inv-7',
};
const forever: FilterableFile = { ...base, expiresAt: null, userDefinedId: null };

function matches(text: string, f: FilterableFile = base): boolean {
  const result = parseFilter(text);
  if (!result.ok) throw new Error(`${text}: ${result.error.message}`);
  return evaluateFilter(result.expr, f);
}

/** Each case: the filter, whether `base` matches. */
function table(cases: [string, boolean][]) {
  expect(cases.map(([text]) => [text, matches(text)])).toEqual(cases);
}

describe('aip160/evaluate', () => {
  describe('evaluateFilter() per field and operator', () => {
    it('name / file_name: `:` is a case-insensitive substring, = and != are exact', () => {
      table([
        ['name:report', true],
        ['name:"REPORT.pdf"', true],
        ['name:"ly r"', true],
        ['name:memo', false],
        ['file_name:pdf', true],
        ['name = "Quarterly Report.PDF"', true],
        ['name = "quarterly report.pdf"', false],
        ['file_name != "Quarterly Report.PDF"', false],
        ['name != other', true],
        ['name:""', true],
      ]);
    });

    it('file_id and user_defined_id are exact; a file without a user_defined_id matches neither = nor !=', () => {
      table([
        ['file_id = file_1', true],
        ['file_id = FILE_1', false],
        ['file_id != file_1', false],
        ['file_id != file_2', true],
        ['user_defined_id = inv-7', true],
        ['user_defined_id = inv', false],
        ['user_defined_id != inv-8', true],
      ]);
      expect(matches('user_defined_id = inv-7', forever)).toBe(false);
      expect(matches('user_defined_id != inv-7', forever)).toBe(false);
      expect(matches('NOT user_defined_id = inv-7', forever)).toBe(true);
    });

    it('size_bytes compares as an integer with every comparator', () => {
      table([
        ['size_bytes = 1000', true],
        ['size_bytes = 01000', true],
        ['size_bytes != 1000', false],
        ['size_bytes > 999', true],
        ['size_bytes > 1000', false],
        ['size_bytes >= 1000', true],
        ['size_bytes >= 1001', false],
        ['size_bytes < 1001', true],
        ['size_bytes < 1000', false],
        ['size_bytes <= 1000', true],
        ['size_bytes <= 999', false],
      ]);
    });

    it('content_type: `:` finds a part and = compares exactly, both ignoring case', () => {
      table([
        ['content_type:pdf', true],
        ['content_type:APPLICATION/', true],
        ['content_type:image', false],
        ['content_type = application/pdf', true],
        ['content_type = Application/PDF', true],
        ['content_type = application/pd', false],
        ['content_type != application/pdf', false],
      ]);
    });

    it('created_at compares instants, whatever zone the timestamp is written in', () => {
      table([
        ['created_at = 2025-11-24T16:00:00Z', true],
        ['created_at = 2025-11-24T18:00:00+02:00', true],
        ['created_at != 2025-11-24T16:00:00Z', false],
        ['created_at > 2025-11-24T15:59:59Z', true],
        ['created_at > 2025-11-24T16:00:00Z', false],
        ['created_at >= 2025-11-24T16:00:00Z', true],
        ['created_at < 2025-11-24T16:00:00.5Z', true],
        ['created_at < 2025-11-24T16:00:00Z', false],
        ['created_at <= 2025-11-24T11:00:00-05:00', true],
        ['created_at <= 2025-11-24T15:59:59.999Z', false],
      ]);
    });

    it('expires_at compares instants; a file that never expires matches no comparison', () => {
      table([
        ['expires_at = 2025-11-25T16:00:00Z', true],
        ['expires_at != 2025-11-25T16:00:00Z', false],
        ['expires_at > 2025-11-25T00:00:00Z', true],
        ['expires_at >= 2025-11-26T00:00:00Z', false],
        ['expires_at < 2025-11-26T00:00:00Z', true],
        ['expires_at <= 2025-11-25T00:00:00Z', false],
      ]);
      for (const op of ['=', '!=', '>', '>=', '<', '<=']) {
        expect([op, matches(`expires_at ${op} 2025-11-25T16:00:00Z`, forever)]).toEqual([op, false]);
      }
      expect(matches('NOT expires_at < 2030-01-01T00:00:00Z', forever)).toBe(true);
    });

    it('upload_status compares with the canonical status, however the filter spells it', () => {
      table([
        ['upload_status = Complete', true],
        ['upload_status = complete', true],
        ['upload_status != Complete', false],
      ]);
      expect(matches('upload_status = Complete', { ...base, uploadStatus: 'Pending' })).toBe(false);
      expect(matches('upload_status != COMPLETE', { ...base, uploadStatus: 'Pending' })).toBe(true);
    });
  });

  describe('evaluateFilter() logic', () => {
    it('combines with AND, OR, NOT, - and juxtaposition', () => {
      table([
        ['name:report AND size_bytes > 10', true],
        ['name:report AND size_bytes > 1000', false],
        ['name:memo OR size_bytes > 10', true],
        ['name:memo OR size_bytes > 1000', false],
        ['NOT name:memo', true],
        ['-name:report', false],
        ['name:report size_bytes < 10', false],
        ['name:memo AND size_bytes > 10 OR name:report', false],
        ['(name:memo AND size_bytes > 10) OR name:report', true],
      ]);
    });

    it('matches every file with the empty filter', () => {
      expect(evaluateFilter(null, base)).toBe(true);
      expect(compileFilter(null)(forever)).toBe(true);
    });
  });

  describe('compileFilter()', () => {
    it('answers like a straightforward reference evaluation over random trees and file sets (property)', () => {
      fc.assert(
        fc.property(filterTree, fc.array(file, { maxLength: 12 }), (tree, files) => {
          const predicate = compileFilter(tree);
          expect(files.map(predicate)).toEqual(files.map((f) => reference(tree, f)));
        }),
        { numRuns: 1500 },
      );
    });
  });
});

// ---- reference evaluation, written from the rules in spec/service.md without the module's helpers ----

function unixSeconds(text: string): number {
  const m = /^(.*?)(?:\.(\d+))?([Zz]|[+-]\d\d:\d\d)$/.exec(text.replace(' ', 'T'));
  if (!m) throw new Error(`not a timestamp: ${text}`);
  const zone = m[3].toUpperCase() === 'Z' ? 'Z' : m[3];
  return Date.parse(`${m[1].toUpperCase()}${zone}`) / 1000 + (m[2] ? Number(`0.${m[2]}`) : 0);
}

function cmp(op: string, a: number, b: number): boolean {
  return { '=': a === b, '!=': a !== b, '>': a > b, '>=': a >= b, '<': a < b, '<=': a <= b }[op] ?? false;
}

function reference(expr: FilterExpr, f: FilterableFile): boolean {
  if (expr.kind === 'and') return expr.operands.every((o) => reference(o, f));
  if (expr.kind === 'or') return expr.operands.some((o) => reference(o, f));
  if (expr.kind === 'not') return !reference(expr.operand, f);
  const { field, op, value } = expr;
  switch (field) {
    case 'name':
    case 'file_name':
      if (op === ':') return f.name.toLowerCase().includes(value.toLowerCase());
      return op === '=' ? f.name === value : f.name !== value;
    case 'file_id':
      return op === '=' ? f.fileId === value : f.fileId !== value;
    case 'user_defined_id':
      if (f.userDefinedId === null) return false;
      return op === '=' ? f.userDefinedId === value : f.userDefinedId !== value;
    case 'content_type': {
      const have = f.contentType.toLowerCase();
      const want = value.toLowerCase();
      if (op === ':') return have.includes(want);
      return op === '=' ? have === want : have !== want;
    }
    case 'upload_status':
      // The one status a filter can name is Complete (in any case); files hold it spelled exactly.
      if (value.toLowerCase() !== 'complete') throw new Error(`unexpected status ${value}`);
      return (f.uploadStatus === 'Complete') === (op === '=');
    case 'size_bytes':
      return cmp(op, f.sizeBytes, parseInt(value, 10));
    case 'created_at':
      return cmp(op, f.createdAt, unixSeconds(value));
    case 'expires_at':
      return f.expiresAt !== null && cmp(op, f.expiresAt, unixSeconds(value));
  }
}
