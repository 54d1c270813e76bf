/**
 * Checking a schema a person wrote before it is sent or used: wrong keyword values that a
 * validator would silently ignore (a misspelt type name, `properties` as an array, `required`
 * naming nothing, a broken pattern or $ref). Paths are JSON Pointers into the schema itself.
 */
import { childPointer, resolvePointer } from './pointer';
import type { Violation } from './validate';
import { isObject } from '../is-object';

const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];
const NUMERIC = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
const COUNTS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'];
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SCHEMA_MAPS = ['properties', '$defs', 'definitions', 'patternProperties'];

function check(root: unknown, s: unknown, path: string, out: Violation[]): void {
  const push = (message: string, at = path): void => void out.push({ path: at, message });
  if (typeof s === 'boolean') return;
  if (!isObject(s)) return push('a schema must be an object (or true/false)');

  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (types.length === 0) push('"type" must not be an empty list', childPointer(path, 'type'));
    for (const t of types) {
      if (typeof t !== 'string' || !TYPES.includes(t)) {
        push(`unknown type ${JSON.stringify(t)}: use one of ${TYPES.join(', ')}`, childPointer(path, 'type'));
      }
    }
  }
  for (const key of NUMERIC) {
    if (s[key] !== undefined && typeof s[key] !== 'number') push(`"${key}" must be a number`, childPointer(path, key));
  }
  if (typeof s.multipleOf === 'number' && s.multipleOf <= 0) push('"multipleOf" must be greater than 0', childPointer(path, 'multipleOf'));
  for (const key of COUNTS) {
    const v = s[key];
    if (v !== undefined && !(Number.isInteger(v) && (v as number) >= 0)) push(`"${key}" must be a whole number, 0 or more`, childPointer(path, key));
  }
  if (s.pattern !== undefined) {
    if (typeof s.pattern !== 'string') push('"pattern" must be a string', childPointer(path, 'pattern'));
    else {
      try {
        new RegExp(s.pattern, 'u');
      } catch (err) {
        push(`"pattern" is not a valid regular expression: ${(err as Error).message}`, childPointer(path, 'pattern'));
      }
    }
  }
  if (s.enum !== undefined && !Array.isArray(s.enum)) push('"enum" must be an array of allowed values', childPointer(path, 'enum'));
  if (Array.isArray(s.enum) && s.enum.length === 0) push('"enum" must list at least one value', childPointer(path, 'enum'));
  if (s.required !== undefined) {
    if (!Array.isArray(s.required) || !s.required.every((r) => typeof r === 'string')) {
      push('"required" must be an array of property names', childPointer(path, 'required'));
    } else if (isObject(s.properties) && s.additionalProperties === false) {
      for (const name of s.required as string[]) {
        if (!(name in s.properties)) push(`"required" names "${name}", which is not in "properties" (and additionalProperties is false)`, childPointer(path, 'required'));
      }
    }
  }
  if (s.uniqueItems !== undefined && typeof s.uniqueItems !== 'boolean') push('"uniqueItems" must be true or false', childPointer(path, 'uniqueItems'));

  for (const key of SCHEMA_MAPS) {
    if (s[key] === undefined) continue;
    if (!isObject(s[key])) {
      push(`"${key}" must be an object mapping names to schemas`, childPointer(path, key));
      continue;
    }
    for (const [name, sub] of Object.entries(s[key] as Record<string, unknown>)) check(root, sub, childPointer(childPointer(path, key), name), out);
  }
  for (const key of SCHEMA_LISTS) {
    if (s[key] === undefined) continue;
    if (!Array.isArray(s[key]) || (s[key] as unknown[]).length === 0) {
      push(`"${key}" must be a non-empty array of schemas`, childPointer(path, key));
      continue;
    }
    (s[key] as unknown[]).forEach((sub, i) => check(root, sub, childPointer(childPointer(path, key), i), out));
  }
  for (const key of ['items', 'additionalProperties', 'not', 'contains', 'propertyNames']) {
    if (s[key] !== undefined) check(root, s[key], childPointer(path, key), out);
  }
  if (s.$ref !== undefined) {
    if (typeof s.$ref !== 'string') push('"$ref" must be a string', childPointer(path, '$ref'));
    else if (!s.$ref.startsWith('#')) push(`"$ref" ${s.$ref} is not local: only references inside this schema (#/$defs/...) can be followed`, childPointer(path, '$ref'));
    else if (resolvePointer(root, decodeURIComponent(s.$ref.slice(1))) === undefined) {
      push(`"$ref" ${s.$ref} points to nothing in this schema`, childPointer(path, '$ref'));
    }
  }
}

/** Mistakes in a schema (empty when it is usable). */
export function checkSchema(schema: unknown): Violation[] {
  const out: Violation[] = [];
  check(schema, schema, '', out);
  return out;
}

/** "properties/city/type: unknown type ..." — a schema problem as one line for a form. */
export function describeSchemaProblem(v: Violation): string {
  return v.path ? `${v.path.slice(1)}: ${v.message}` : v.message;
}
