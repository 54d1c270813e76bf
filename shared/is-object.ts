/**
 * The one guard for "a plain JSON-style object": what every reader of untyped JSON (wire frames,
 * request bodies, stored records, imported files) checks before looking at keys. Arrays and null
 * are not objects here, which is what each of those readers needs.
 */

/** True for a non-null, non-array object, narrowed to a string-keyed record. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
