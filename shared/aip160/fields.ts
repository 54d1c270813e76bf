/**
 * The Files API filter fields, one table (spec/service.md "Files"): each field's value type, the
 * comparators it allows, and how a value written in a filter is checked. The parser, the
 * evaluator, the printer and the app's filter builder all read this table.
 */
import { parseRfc3339 } from './rfc3339';

/** Field names a filter may use. `name` and `file_name` are the same field. */
export type FilterFieldName =
  | 'name'
  | 'file_name'
  | 'file_id'
  | 'size_bytes'
  | 'content_type'
  | 'created_at'
  | 'expires_at'
  | 'upload_status'
  | 'user_defined_id';

/** AIP-160 comparators; `:` is "has" (here: case-insensitive substring). */
export type Comparator = '=' | '!=' | '>' | '>=' | '<' | '<=' | ':';

/** Every comparator, in the order error messages list them. */
export const COMPARATORS: readonly Comparator[] = ['=', '!=', '>', '>=', '<', '<=', ':'];

/**
 * How a field's values are read and compared: `text` (case-sensitive `=`, case-insensitive `:`),
 * `mime` (like text, but `=` ignores case as MIME types do), `id` (exact), `integer`,
 * `timestamp` (RFC 3339 in the filter, unix seconds on the file), `status` (one of a fixed set).
 */
export type FilterValueType = 'text' | 'mime' | 'id' | 'integer' | 'timestamp' | 'status';

/** One row of the field table. */
export interface FilterFieldSpec {
  type: FilterValueType;
  ops: readonly Comparator[];
  /** What the field matches, for the builder's tooltip. */
  description: string;
  /** A value that parses, for placeholders. */
  example: string;
}

const ORDERED: readonly Comparator[] = ['=', '!=', '>', '>=', '<', '<='];

/** Values `upload_status` can take. */
export const UPLOAD_STATUSES = ['Complete'] as const;

/** The field table. */
export const FILTER_FIELDS: Readonly<Record<FilterFieldName, FilterFieldSpec>> = {
  name: { type: 'text', ops: ['=', '!=', ':'], description: 'File name (`:` finds a part, any case)', example: 'report' },
  file_name: { type: 'text', ops: ['=', '!=', ':'], description: 'Same as name', example: 'report.pdf' },
  file_id: { type: 'id', ops: ['=', '!='], description: 'File id, exact', example: 'file_a128090d-f0c9-4873-bd84-e499777e7417' },
  size_bytes: { type: 'integer', ops: ORDERED, description: 'Size in bytes', example: '1048576' },
  content_type: { type: 'mime', ops: ['=', '!=', ':'], description: 'MIME type (`:` finds a part)', example: 'image/png' },
  created_at: { type: 'timestamp', ops: ORDERED, description: 'Upload time (RFC 3339)', example: '2026-11-24T10:00:00Z' },
  expires_at: { type: 'timestamp', ops: ORDERED, description: 'Expiry time (RFC 3339); files that never expire never match', example: '2026-11-24T10:00:00Z' },
  upload_status: { type: 'status', ops: ['=', '!='], description: 'Upload status', example: 'Complete' },
  user_defined_id: { type: 'id', ops: ['=', '!='], description: 'Your own id for the file, exact; files without one never match', example: 'invoice-2026-001' },
};

/** Field names in table order. */
export const FILTER_FIELD_NAMES = Object.keys(FILTER_FIELDS) as FilterFieldName[];

/** Names people reach for (the File object's own fields, common synonyms) and the field they mean. */
const LIKELY: Readonly<Record<string, FilterFieldName>> = {
  filename: 'file_name',
  id: 'file_id',
  fileid: 'file_id',
  bytes: 'size_bytes',
  size: 'size_bytes',
  type: 'content_type',
  mime_type: 'content_type',
  'content-type': 'content_type',
  created: 'created_at',
  expires: 'expires_at',
  expiry: 'expires_at',
  status: 'upload_status',
};

/** The field an unknown word most likely meant (`Name` → name, `filename` → file_name), or null. */
export function suggestFilterField(word: string): FilterFieldName | null {
  const lower = word.toLowerCase();
  if (isFilterField(lower)) return lower;
  return Object.prototype.hasOwnProperty.call(LIKELY, lower) ? LIKELY[lower] : null;
}

/** True when `word` is a field name. */
export function isFilterField(word: string): word is FilterFieldName {
  return Object.prototype.hasOwnProperty.call(FILTER_FIELDS, word);
}

/** Why `value` is not acceptable for `field`, or null when it is. Messages name the field and show an example. */
export function checkFieldValue(field: FilterFieldName, value: string): string | null {
  const spec = FILTER_FIELDS[field];
  switch (spec.type) {
    case 'integer':
      return /^[0-9]+$/.test(value) && Number.isSafeInteger(Number(value))
        ? null
        : `${field} must be a whole number of bytes, like ${spec.example}; got ${JSON.stringify(value)}`;
    case 'timestamp':
      return parseRfc3339(value) === null
        ? `${field} must be an RFC 3339 timestamp like ${spec.example}; got ${JSON.stringify(value)}`
        : null;
    case 'status':
      return statusValue(value) === null
        ? `${field} can only be ${UPLOAD_STATUSES.join(' or ')}; got ${JSON.stringify(value)}`
        : null;
    default:
      return null;
  }
}

/** The canonical upload status for `value` (case-insensitive), or null when there is none. */
export function statusValue(value: string): string | null {
  const lower = value.toLowerCase();
  return UPLOAD_STATUSES.find((s) => s.toLowerCase() === lower) ?? null;
}
