import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
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

describe('aip160/parser fields and operators', () => {
  it('accepts every allowed operator on every field, with and without spaces', () => {
    const cases: [string, FilterExpr][] = [
      ['name:Report', r('name', ':', 'Report')],
      ['name = report.pdf', r('name', '=', 'report.pdf')],
      ['name!=x', r('name', '!=', 'x')],
      ['file_name : "my report"', r('file_name', ':', 'my report')],
      ['file_id = file_a128090d-f0c9-4873-bd84-e499777e7417', r('file_id', '=', 'file_a128090d-f0c9-4873-bd84-e499777e7417')],
      ['file_id != file_1', r('file_id', '!=', 'file_1')],
      ['size_bytes = 10', r('size_bytes', '=', '10')],
      ['size_bytes != 10', r('size_bytes', '!=', '10')],
      ['size_bytes>10', r('size_bytes', '>', '10')],
      ['size_bytes >= 10', r('size_bytes', '>=', '10')],
      ['size_bytes<10', r('size_bytes', '<', '10')],
      ['size_bytes <= "10"', r('size_bytes', '<=', '10')],
      ['content_type:image/', r('content_type', ':', 'image/')],
      ['content_type = application/pdf', r('content_type', '=', 'application/pdf')],
      ['content_type != text/plain', r('content_type', '!=', 'text/plain')],
      ['created_at > 2026-11-24T10:00:00Z', r('created_at', '>', '2026-11-24T10:00:00Z')],
      ['created_at<="2026-11-24T10:00:00.250+02:00"', r('created_at', '<=', '2026-11-24T10:00:00.250+02:00')],
      ['expires_at < 2026-11-24t10:00:00z', r('expires_at', '<', '2026-11-24t10:00:00z')],
      ['expires_at = "2026-11-24 10:00:00Z"', r('expires_at', '=', '2026-11-24 10:00:00Z')],
      ['upload_status = Complete', r('upload_status', '=', 'Complete')],
      ['upload_status != complete', r('upload_status', '!=', 'complete')],
      ['user_defined_id = invoice-7', r('user_defined_id', '=', 'invoice-7')],
      ['user_defined_id != "a b"', r('user_defined_id', '!=', 'a b')],
    ];
    for (const [text, expected] of cases) expect([text, tree(text)]).toEqual([text, expected]);
  });

  it('reads values after a comparator up to a space or parenthesis, whatever they hold', () => {
    expect(tree('name:a:b=c')).toEqual(r('name', ':', 'a:b=c'));
    expect(tree('name:-x')).toEqual(r('name', ':', '-x'));
    expect(tree('name:and')).toEqual(r('name', ':', 'and'));
    expect(tree('(name:x)name:y')).toEqual({ kind: 'and', operands: [r('name', ':', 'x'), r('name', ':', 'y')] });
    expect(tree('name:"AND"')).toEqual(r('name', ':', 'AND'));
    expect(tree('name = ""')).toEqual(r('name', '=', ''));
  });

  it('resolves escapes in quoted strings', () => {
    expect(tree('name = "a\\"b\\\\c\\nd\\te\\rf"')).toEqual(r('name', '=', 'a"b\\c\nd\te\rf'));
    expect(tree('name:"(x) OR y"')).toEqual(r('name', ':', '(x) OR y'));
  });
});

describe('aip160/parser errors', () => {
  const FIELDS = 'name, file_name, file_id, size_bytes, content_type, created_at, expires_at, upload_status, user_defined_id';
  const cases: [string, string, number, number][] = [
    ['nam:x', `unknown field "nam"; known fields: ${FIELDS}`, 1, 3],
    ['filename:x', `unknown field "filename" (did you mean file_name?); known fields: ${FIELDS}`, 1, 8],
    ['Size_Bytes > 4', `unknown field "Size_Bytes" (did you mean size_bytes?); known fields: ${FIELDS}`, 1, 10],
    ['name:a bytes > 4', `unknown field "bytes" (did you mean size_bytes?); known fields: ${FIELDS}; to match a value with spaces, quote it: name:"a b"`, 8, 5],
    ['name:foo bar', `unknown field "bar"; known fields: ${FIELDS}; to match a value with spaces, quote it: name:"a b"`, 10, 3],
    ['name:a and name:b', '"and" is not a field; logical operators are written in upper case: AND', 8, 3],
    ['name:a Or name:b', '"Or" is not a field; logical operators are written in upper case: OR', 8, 2],
    ['name == x', 'unknown operator "=="; use one of = != > >= < <= :', 6, 2],
    ['name ~ x', 'unknown operator "~"; use one of = != > >= < <= :', 6, 1],
    ['size_bytes =< 4', 'unknown operator "=<"; use one of = != > >= < <= :', 12, 2],
    ['name !x', 'unknown operator "!"; use one of = != > >= < <= :', 6, 1],
    ['size_bytes:4', '":" is not allowed on size_bytes; use one of = != > >= < <=', 11, 1],
    ['name > b', '">" is not allowed on name; use one of = != :', 6, 1],
    ['file_id:abc', '":" is not allowed on file_id; use one of = !=', 8, 1],
    ['created_at:2026', '":" is not allowed on created_at; use one of = != > >= < <=', 11, 1],
    ['upload_status < Complete', '"<" is not allowed on upload_status; use one of = !=', 15, 1],
    ['name', 'expected an operator after name (one of = != :)', 5, 0],
    ['size_bytes 5', 'expected an operator after size_bytes (one of = != > >= < <=), found "5"', 12, 1],
    ['name:', 'missing value after name:', 6, 0],
    ['(name = )', 'missing value after name =, found ")"', 9, 1],
    ['name = = x', 'missing value after name =, found "="', 8, 1],
    ['name:OR', 'missing value after name:, found OR; to match the word, quote it: "OR"', 6, 2],
    ['size_bytes = 1.5', 'size_bytes must be a whole number of bytes, like 1048576; got "1.5"', 14, 3],
    ['size_bytes > -1', 'size_bytes must be a whole number of bytes, like 1048576; got "-1"', 14, 2],
    ['size_bytes > 99999999999999999999', 'size_bytes must be a whole number of bytes, like 1048576; got "99999999999999999999"', 14, 20],
    ['created_at > yesterday', 'created_at must be an RFC 3339 timestamp like 2026-11-24T10:00:00Z; got "yesterday"', 14, 9],
    ['created_at > 2026-11-24T10:00:00', 'created_at must be an RFC 3339 timestamp like 2026-11-24T10:00:00Z; got "2026-11-24T10:00:00"', 14, 19],
    ['expires_at < 2026-02-30T10:00:00Z', 'expires_at must be an RFC 3339 timestamp like 2026-11-24T10:00:00Z; got "2026-02-30T10:00:00Z"', 14, 20],
    ['upload_status = done', 'upload_status can only be Complete; got "done"', 17, 4],
    ['name:"abc', 'unterminated quoted string: add the closing "', 6, 4],
    ['name:"abc\\', 'unterminated quoted string: add the closing "', 6, 5],
    ['name:"a\\qb"', 'unknown escape \\q in a quoted string; use \\" for a quote, \\\\ for a backslash', 8, 2],
    ['name:ab"c"', 'a quote in the middle of a value; put the whole value in quotes', 8, 1],
    ['(name:a', 'unbalanced parenthesis: this "(" is never closed', 1, 1],
    ['name:a (name:b OR (name:c)', 'unbalanced parenthesis: this "(" is never closed', 8, 1],
    ['name:a)', 'unbalanced parenthesis: this ")" has no matching "("', 7, 1],
    [') name:a', 'unbalanced parenthesis: this ")" has no matching "("', 1, 1],
    ['(name:a = b)', 'expected ")" to close the "(" at column 1, found "="', 9, 1],
    ['name:a = b', 'expected AND, OR or another restriction, found "="', 8, 1],
    ['name:a ( )', 'empty parentheses: put a filter inside', 8, 3],
    ['NOT', 'expected a filter after NOT', 4, 0],
    ['- ', 'expected a filter after "-"', 3, 0],
    ['NOT NOT name:a', 'expected a filter after NOT, found NOT', 5, 3],
    ['name:a AND', 'expected a filter after AND', 11, 0],
    ['name:a OR )', 'expected a filter after OR, found ")"', 11, 1],
    ['name:a AND OR name:b', 'expected a filter after AND, found OR', 12, 2],
    ['(', 'expected a filter after "("', 2, 0],
    ['AND name:a', 'expected a filter before AND', 1, 3],
    ['= 5', 'expected a field name before "="', 1, 1],
    ['"report"', 'expected a field name, found the quoted string "report"; quoted text can only be a value, as in name:"a b"', 1, 8],
    ['name:a "b"', 'expected a field name, found the quoted string "b"; quoted text can only be a value, as in name:"a b"', 8, 3],
    ['('.repeat(101) + 'name:a' + ')'.repeat(101), 'parentheses nested more than 100 deep', 101, 1],
  ];
  for (const [text, message, column, length] of cases) {
    it(`${JSON.stringify(text.length > 40 ? text.slice(0, 40) + '…' : text)} → column ${column}: ${message}`, () => {
      expect(parseFilter(text)).toEqual({ ok: false, error: { message, column, length } });
    });
  }

  it('reports the first problem in the text when a lexing error comes later', () => {
    expect(parseFilter('nope:1 AND name:"x')).toMatchObject({ ok: false, error: { column: 1 } });
    expect(parseFilter('name:x AND name == y')).toMatchObject({ ok: false, error: { column: 17 } });
  });

  it('accepts parentheses nested exactly 100 deep', () => {
    expect(tree('('.repeat(100) + 'name:a' + ')'.repeat(100))).toEqual(A);
  });
});

describe('aip160/parser robustness', () => {
  /** Fragments that make plausible-looking but often broken filters. */
  const fragment = fc.constantFrom(
    'name', 'size_bytes', 'created_at', 'expires_at', 'upload_status', 'nope', 'and', 'AND', 'OR', 'NOT', '-', '(', ')',
    ':', '=', '!=', '>=', '<', '==', '~', '"', '"x y"', '"\\', '\\', 'x', '5', '2026-11-24T10:00:00Z', 'Complete', ' ', '  ',
  );
  const soup = fc.array(fragment, { maxLength: 14 }).map((parts) => parts.join(''));

  function wellFormed(text: string): void {
    const result = parseFilter(text);
    if (result.ok) return;
    const { column, length, message } = result.error;
    expect(message.length).toBeGreaterThan(0);
    expect(column).toBeGreaterThanOrEqual(1);
    expect(column + (length ?? 0)).toBeLessThanOrEqual(text.length + 1);
  }

  it('never throws on arbitrary text and places every error inside the text (property)', () => {
    fc.assert(fc.property(fc.string({ maxLength: 40 }), wellFormed), { numRuns: 3000 });
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 20 }), wellFormed), { numRuns: 1000 });
  });

  it('never throws on soups of filter fragments (property)', () => {
    fc.assert(fc.property(soup, wellFormed), { numRuns: 5000 });
  });

  it('refuses very deep nesting and very long NOT/- runs without exhausting the stack', () => {
    expect(parseFilter('('.repeat(100_000)).ok).toBe(false);
    expect(parseFilter('-'.repeat(100_000) + 'name:a').ok).toBe(false);
    expect(parseFilter(Array(20_000).fill('name:a').join(' OR ')).ok).toBe(true);
  });
});
