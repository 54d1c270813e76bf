// fast-check generators shared by the AIP-160 property tests: filter trees the parser could
// produce (valid values for each field's type) and small random file sets.
import fc from 'fast-check';
import { joinFilters, type FilterExpr } from '../../../../shared/aip160/ast';
import { FILTER_FIELDS, FILTER_FIELD_NAMES, type FilterFieldName } from '../../../../shared/aip160/fields';
import type { FilterableFile } from '../../../../shared/aip160/evaluate';

/** A few fixed instants (unix seconds) so random files and random filters actually meet. */
export const INSTANTS = [0, 1_764_000_000, 1_764_000_001, 1_764_086_400, 1_800_000_000];
const NAMES = ['report.pdf', 'Report.PDF', 'photo.png', 'a b', 'notes', '', 'AND', 'x"y'];
const TYPES = ['application/pdf', 'image/png', 'IMAGE/PNG', 'text/plain'];
const SIZES = [0, 1, 10, 1024, 1_048_576];

/** RFC 3339 text for one of INSTANTS, in one of several spellings of the same instant. */
const timestampText = fc
  .tuple(fc.constantFrom(...INSTANTS), fc.constantFrom('Z', 'z', '+02:00', '-05:30'), fc.boolean())
  .map(([s, zone, fraction]) => {
    const offset = zone === '+02:00' ? 7200 : zone === '-05:30' ? -19800 : 0;
    const iso = new Date((s + offset) * 1000).toISOString().slice(0, 19);
    return `${iso}${fraction ? '.000' : ''}${zone}`;
  });

const IDS = ['file_1', 'file_2', 'u-1', 'AND'];

/** Values likely to meet the random files, per text field, in several cases. */
const NEAR: Partial<Record<FilterFieldName, string[]>> = {
  name: [...NAMES, 'report', 'PDF', 'png', 'REPORT.PDF'],
  file_name: [...NAMES, 'report', 'PDF', 'png', 'REPORT.PDF'],
  file_id: [...IDS, 'FILE_1'],
  content_type: [...TYPES, 'image/', 'PDF', 'Image/Png', 'text'],
  user_defined_id: [...IDS, 'U-1'],
};

/** Texts that exercise quoting (keywords, operators, spaces, quotes, backslashes, unicode) or meet the files. */
function text(field: FilterFieldName): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...(NEAR[field] ?? []), '-x', ':x', '=x', 'OR', 'not', '(x)'),
    fc.string({ maxLength: 6 }),
    fc.string({ unit: 'grapheme', maxLength: 4 }),
  );
}

function valueFor(field: FilterFieldName): fc.Arbitrary<string> {
  switch (FILTER_FIELDS[field].type) {
    case 'integer':
      return fc.oneof(fc.constantFrom(...SIZES.map(String)), fc.nat().map(String));
    case 'timestamp':
      return timestampText;
    case 'status':
      return fc.constantFrom('Complete', 'complete', 'COMPLETE');
    default:
      return text(field);
  }
}

export const restriction: fc.Arbitrary<FilterExpr> = fc
  .constantFrom(...FILTER_FIELD_NAMES)
  .chain((field) =>
    fc.record({
      kind: fc.constant('restriction' as const),
      field: fc.constant(field),
      op: fc.constantFrom(...FILTER_FIELDS[field].ops),
      value: valueFor(field),
    }),
  );

/** Any tree shape (single-operand and nested same-kind groups included); see `normalize`. */
export const filterTree: fc.Arbitrary<FilterExpr> = fc.letrec<{ expr: FilterExpr }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    restriction,
    fc.record({ kind: fc.constant('not' as const), operand: tie('expr') }),
    fc.record({ kind: fc.constantFrom('and' as const, 'or' as const), operands: fc.array(tie('expr'), { minLength: 1, maxLength: 4 }) }),
  ),
})).expr;

/** The tree the parser gives for the same meaning: single operands unwrapped, same-kind groups flattened. */
export function normalize(expr: FilterExpr): FilterExpr {
  switch (expr.kind) {
    case 'restriction':
      return expr;
    case 'not':
      return { kind: 'not', operand: normalize(expr.operand) };
    default:
      return joinFilters(expr.kind, expr.operands.map(normalize));
  }
}

export const file: fc.Arbitrary<FilterableFile> = fc.record({
  name: fc.oneof(fc.constantFrom(...NAMES), fc.string({ maxLength: 5 })),
  fileId: fc.constantFrom(...IDS),
  sizeBytes: fc.constantFrom(...SIZES),
  contentType: fc.constantFrom(...TYPES),
  createdAt: fc.constantFrom(...INSTANTS),
  expiresAt: fc.option(fc.constantFrom(...INSTANTS)),
  uploadStatus: fc.constantFrom('Complete', 'Pending'),
  userDefinedId: fc.option(fc.constantFrom(...IDS)),
});
