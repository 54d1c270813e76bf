/**
 * Values that satisfy a JSON Schema, for `response_format: json_schema` answers and tool-call
 * arguments. Covers what function and response schemas use: type (or a list of types), enum,
 * const, object properties/required, arrays with items/minItems/maxItems, string lengths and
 * formats, number bounds, anyOf/oneOf/allOf and local $ref. Deterministic for a given Rng.
 */
import { isObject } from '../../../shared/is-object';
import type { Rng } from './rng';

type Schema = Record<string, unknown>;

export interface SchemaHints {
  /** Words of the prompt, used to make strings look related to the request. */
  words?: string[];
  /** Proper nouns of the prompt ("Lisbon"), used for place-like properties before made-up cities. */
  places?: string[];
}

const MAX_DEPTH = 8;
const CITIES = ['San Francisco', 'Lisbon', 'Nairobi', 'Osaka', 'Toronto', 'Berlin'];
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'];

/** A schema node is any plain object (its keys are JSON Schema keywords). */
const isSchema: (v: unknown) => v is Schema = isObject;

/** A value valid against `schema` (the root is also where `$ref`s resolve). */
export function generateFromSchema(schema: unknown, rng: Rng, hints: SchemaHints = {}): unknown {
  const root = isSchema(schema) ? schema : {};
  return gen(root, root, rng, hints, '', 0);
}

function resolve(schema: Schema, root: Schema): Schema {
  let s = schema;
  for (let i = 0; i < 10 && typeof s.$ref === 'string'; i++) {
    const ref = s.$ref as string;
    if (!ref.startsWith('#')) return {};
    let target: unknown = root;
    for (const part of ref.slice(1).split('/').filter(Boolean)) {
      target = isSchema(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    }
    s = isSchema(target) ? { ...target, ...withoutRef(s) } : {};
  }
  return s;
}

function withoutRef(s: Schema): Schema {
  const { $ref: _ref, ...rest } = s;
  return rest;
}

function merge(all: unknown[], root: Schema): Schema {
  const out: Schema = {};
  for (const part of all) {
    if (!isSchema(part)) continue;
    const p = resolve(part, root);
    for (const [k, v] of Object.entries(p)) {
      if (k === 'properties' && isSchema(out.properties) && isSchema(v)) out.properties = { ...out.properties, ...v };
      else if (k === 'required' && Array.isArray(out.required) && Array.isArray(v)) out.required = [...out.required, ...v];
      else out[k] = v;
    }
  }
  return out;
}

function gen(raw: Schema, root: Schema, rng: Rng, hints: SchemaHints, name: string, depth: number): unknown {
  let s = resolve(raw, root);
  if (Array.isArray(s.allOf)) s = merge([withoutKey(s, 'allOf'), ...s.allOf], root);
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return rng.pick(s.enum);
  const branches = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : null) as unknown[] | null;
  if (branches && branches.length > 0) {
    const usable = branches.filter((b) => isSchema(b) && resolve(b, root).type !== 'null');
    const branch = (usable.length > 0 && depth < MAX_DEPTH ? rng.pick(usable) : branches[0]) as Schema;
    return gen(merge([withoutKey(withoutKey(s, 'anyOf'), 'oneOf'), branch], root), root, rng, hints, name, depth + 1);
  }
  return genTyped(s, pickType(s, depth), root, rng, hints, name, depth);
}

function withoutKey(s: Schema, key: string): Schema {
  const { [key]: _drop, ...rest } = s;
  return rest;
}

function pickType(s: Schema, depth: number): string {
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
  const nonNull = types.filter((t) => t !== 'null');
  if (nonNull.length === 0) {
    if (types.includes('null')) return 'null';
    if (isSchema(s.properties)) return 'object';
    if (isSchema(s.items)) return 'array';
    return 'string';
  }
  // Deep in recursive schemas, prefer a type that ends the recursion.
  if (depth >= MAX_DEPTH) return types.includes('null') ? 'null' : (nonNull.find((t) => t !== 'object' && t !== 'array') ?? nonNull[0]);
  return nonNull[0];
}

function genTyped(s: Schema, type: string, root: Schema, rng: Rng, hints: SchemaHints, name: string, depth: number): unknown {
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return rng.chance(0.5);
    case 'integer':
    case 'number':
      return genNumber(s, type === 'integer', rng);
    case 'array':
      return genArray(s, root, rng, hints, name, depth);
    case 'object':
      return genObject(s, root, rng, hints, depth);
    default:
      return genString(s, rng, hints, name);
  }
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function genNumber(s: Schema, integer: boolean, rng: Rng): number {
  const exMin = num(s.exclusiveMinimum);
  const exMax = num(s.exclusiveMaximum);
  const step = integer ? 1 : 0.01;
  let min = num(s.minimum) ?? (exMin !== undefined ? exMin + step : undefined);
  let max = num(s.maximum) ?? (exMax !== undefined ? exMax - step : undefined);
  if (min === undefined && max === undefined) {
    min = 0;
    max = 100;
  } else if (min === undefined) min = (max as number) - 100;
  else if (max === undefined) max = min + 100;
  if (integer) {
    const lo = Math.ceil(min);
    const hi = Math.floor(max as number);
    const value = hi >= lo ? rng.int(lo, hi) : lo;
    const multiple = num(s.multipleOf);
    return multiple && Number.isInteger(multiple) ? Math.ceil(value / multiple) * multiple : value;
  }
  const value = min + rng.next() * ((max as number) - min);
  return Math.round(value * 100) / 100 >= min && Math.round(value * 100) / 100 <= (max as number) ? Math.round(value * 100) / 100 : value;
}

function genArray(s: Schema, root: Schema, rng: Rng, hints: SchemaHints, name: string, depth: number): unknown[] {
  const min = num(s.minItems) ?? (depth >= MAX_DEPTH ? 0 : 1);
  const max = Math.max(min, Math.min(num(s.maxItems) ?? min + 2, min + 3));
  const n = depth >= MAX_DEPTH ? min : rng.int(min, max);
  const items = isSchema(s.items) ? s.items : {};
  const prefix = Array.isArray(s.prefixItems) ? (s.prefixItems as unknown[]) : [];
  return Array.from({ length: Math.max(n, prefix.length) }, (_, i) =>
    gen(isSchema(prefix[i]) ? (prefix[i] as Schema) : items, root, rng, hints, singular(name), depth + 1),
  );
}

function genObject(s: Schema, root: Schema, rng: Rng, hints: SchemaHints, depth: number): Record<string, unknown> {
  const props = isSchema(s.properties) ? s.properties : {};
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(props)) {
    // Optional properties appear most of the time, never past the depth limit.
    if (!required.has(key) && (depth >= MAX_DEPTH || rng.chance(0.25))) continue;
    out[key] = gen(isSchema(sub) ? sub : {}, root, rng, hints, key, depth + 1);
  }
  for (const key of required) {
    if (!(key in out)) out[key] = gen({}, root, rng, hints, key, depth + 1);
  }
  return out;
}

function singular(name: string): string {
  return name.endsWith('s') ? name.slice(0, -1) : name;
}

function genString(s: Schema, rng: Rng, hints: SchemaHints, name: string): string {
  const minLength = num(s.minLength) ?? 0;
  const maxLength = num(s.maxLength);
  let text = stringFor(s.format, name, rng, hints);
  if (text.length < minLength) text = text.padEnd(minLength, 'x');
  if (maxLength !== undefined && Array.from(text).length > maxLength) text = Array.from(text).slice(0, maxLength).join('');
  return text;
}

function stringFor(format: unknown, name: string, rng: Rng, hints: SchemaHints): string {
  const words = hints.words && hints.words.length > 0 ? hints.words : WORDS;
  switch (format) {
    case 'date-time':
      return new Date(Date.UTC(2025, rng.int(0, 11), rng.int(1, 28), rng.int(0, 23), rng.int(0, 59))).toISOString().replace('.000', '');
    case 'date':
      return `2025-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`;
    case 'time':
      return `${String(rng.int(0, 23)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}:00`;
    case 'email':
      return `${rng.pick(words).replace(/[^a-z0-9]/gi, '') || 'user'}@example.com`;
    case 'uri':
    case 'url':
      return `https://example.com/${rng.pick(words).replace(/[^a-z0-9]/gi, '') || 'page'}`;
    case 'uuid':
      return '00000000-0000-4000-8000-'.concat(String(rng.int(0, 999_999_999_999)).padStart(12, '0'));
    default:
      break;
  }
  const key = name.toLowerCase();
  if (/(location|city|place|town|destination)/.test(key)) return hints.places?.[0] ?? rng.pick(CITIES);
  if (/(name|title)/.test(key)) return `${capitalise(rng.pick(words))} ${capitalise(rng.pick(WORDS))}`;
  if (/(query|search|question|prompt|text)/.test(key)) return words.slice(0, 4).join(' ');
  if (/(unit)/.test(key)) return rng.pick(['celsius', 'fahrenheit']);
  return `${rng.pick(words)} ${rng.pick(WORDS)}`;
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
