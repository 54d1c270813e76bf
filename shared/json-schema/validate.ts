/**
 * A JSON Schema validator for the replies the playgrounds show (structured output, tool-call
 * arguments): the keywords strict function schemas and response formats use, with `$ref` to
 * local `#/$defs/…` and `#/definitions/…`. Every violation names its node by JSON Pointer so the
 * tree view can mark it. Unknown keywords are ignored, as JSON Schema says.
 */
import { childPointer, resolvePointer } from './pointer';
import { isObject } from '../is-object';

/** One broken rule: the offending node (`""` is the root, `/items/2/name` deeper) and why. */
export interface Violation {
  path: string;
  message: string;
}

type Schema = Record<string, unknown> | boolean;

/** The JSON type name of a value (`integer` counts as `number` too; see matchesType). */
export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function matchesType(v: unknown, type: string): boolean {
  const actual = jsonType(v);
  return actual === type || (type === 'number' && actual === 'integer');
}

/** Deep JSON equality (object key order does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => jsonEqual(x, bb[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

const show = (v: unknown): string => {
  const text = JSON.stringify(v);
  return text === undefined ? String(v) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/** Counts characters as JSON Schema does: by code point, not UTF-16 unit. */
const length = (s: string): number => [...s].length;

class Validator {
  private readonly refsInUse = new Set<string>();

  constructor(private readonly root: Schema) {}

  run(value: unknown, schema: Schema, path: string): Violation[] {
    if (schema === true) return [];
    if (schema === false) return [{ path, message: 'no value is allowed here' }];
    if (!isObject(schema)) return [];
    if (typeof schema.$ref === 'string') return this.ref(value, schema.$ref, path);
    const out: Violation[] = [];
    const push = (message: string, at = path): void => void out.push({ path: at, message });

    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
      if (!types.some((t) => matchesType(value, t))) {
        push(`expected ${types.join(' or ')}, got ${jsonType(value)}`);
        return out;
      }
    }
    if (Array.isArray(schema.enum) && !schema.enum.some((e) => jsonEqual(e, value))) {
      push(`must be one of ${schema.enum.map(show).join(', ')}`);
    }
    if ('const' in schema && !jsonEqual(schema.const, value)) push(`must be ${show(schema.const)}`);
    if (typeof value === 'number') this.number(value, schema, push);
    if (typeof value === 'string') this.string(value, schema, push);
    if (Array.isArray(value)) out.push(...this.array(value, schema, path));
    if (isObject(value)) out.push(...this.object(value, schema, path));
    out.push(...this.combinators(value, schema, path));
    return out;
  }

  private ref(value: unknown, ref: string, path: string): Violation[] {
    if (!ref.startsWith('#')) return [{ path, message: `cannot follow $ref "${ref}": only local references (#/$defs/...) are supported` }];
    const target = resolvePointer(this.root, decodeURIComponent(ref.slice(1)));
    if (target === undefined) return [{ path, message: `$ref "${ref}" points to nothing in the schema` }];
    // A ref that leads back to itself at the same node would recurse forever.
    const key = `${ref}@${path}`;
    if (this.refsInUse.has(key)) return [];
    this.refsInUse.add(key);
    try {
      return this.run(value, target as Schema, path);
    } finally {
      this.refsInUse.delete(key);
    }
  }

  private number(v: number, s: Record<string, unknown>, push: (m: string) => void): void {
    if (typeof s.minimum === 'number' && v < s.minimum) push(`must be at least ${s.minimum}, got ${v}`);
    if (typeof s.maximum === 'number' && v > s.maximum) push(`must be at most ${s.maximum}, got ${v}`);
    if (typeof s.exclusiveMinimum === 'number' && v <= s.exclusiveMinimum) push(`must be greater than ${s.exclusiveMinimum}, got ${v}`);
    if (typeof s.exclusiveMaximum === 'number' && v >= s.exclusiveMaximum) push(`must be less than ${s.exclusiveMaximum}, got ${v}`);
    if (typeof s.multipleOf === 'number' && s.multipleOf > 0) {
      const q = v / s.multipleOf;
      if (Math.abs(q - Math.round(q)) > 1e-9) push(`must be a multiple of ${s.multipleOf}`);
    }
  }

  private string(v: string, s: Record<string, unknown>, push: (m: string) => void): void {
    const n = length(v);
    if (typeof s.minLength === 'number' && n < s.minLength) push(`must be at least ${s.minLength} characters long, got ${n}`);
    if (typeof s.maxLength === 'number' && n > s.maxLength) push(`must be at most ${s.maxLength} characters long, got ${n}`);
    if (typeof s.pattern === 'string') {
      let re: RegExp | null = null;
      try {
        re = new RegExp(s.pattern, 'u');
      } catch {
        push(`the schema's pattern ${show(s.pattern)} is not a valid regular expression`);
      }
      if (re && !re.test(v)) push(`must match the pattern ${s.pattern}`);
    }
  }

  private array(v: unknown[], s: Record<string, unknown>, path: string): Violation[] {
    const out: Violation[] = [];
    if (typeof s.minItems === 'number' && v.length < s.minItems) out.push({ path, message: `must have at least ${s.minItems} items, got ${v.length}` });
    if (typeof s.maxItems === 'number' && v.length > s.maxItems) out.push({ path, message: `must have at most ${s.maxItems} items, got ${v.length}` });
    if (s.uniqueItems === true) {
      for (let j = 1; j < v.length; j++) {
        const i = v.findIndex((x) => jsonEqual(x, v[j]));
        if (i < j) out.push({ path: childPointer(path, j), message: `duplicates item ${i}; items must be unique` });
      }
    }
    const prefix = Array.isArray(s.prefixItems) ? (s.prefixItems as Schema[]) : [];
    v.forEach((item, i) => {
      const itemSchema = i < prefix.length ? prefix[i] : (s.items as Schema | undefined);
      if (itemSchema !== undefined && !Array.isArray(itemSchema)) out.push(...this.run(item, itemSchema, childPointer(path, i)));
    });
    return out;
  }

  private object(v: Record<string, unknown>, s: Record<string, unknown>, path: string): Violation[] {
    const out: Violation[] = [];
    const props = isObject(s.properties) ? (s.properties as Record<string, Schema>) : {};
    if (Array.isArray(s.required)) {
      for (const key of s.required as string[]) {
        if (!Object.prototype.hasOwnProperty.call(v, key)) out.push({ path, message: `missing required property "${key}"` });
      }
    }
    const count = Object.keys(v).length;
    if (typeof s.minProperties === 'number' && count < s.minProperties) out.push({ path, message: `must have at least ${s.minProperties} properties` });
    if (typeof s.maxProperties === 'number' && count > s.maxProperties) out.push({ path, message: `must have at most ${s.maxProperties} properties` });
    for (const [key, item] of Object.entries(v)) {
      const at = childPointer(path, key);
      if (Object.prototype.hasOwnProperty.call(props, key)) out.push(...this.run(item, props[key]!, at));
      else if (s.additionalProperties === false) out.push({ path: at, message: `property "${key}" is not allowed (additionalProperties is false)` });
      else if (isObject(s.additionalProperties)) out.push(...this.run(item, s.additionalProperties, at));
    }
    return out;
  }

  private combinators(value: unknown, s: Record<string, unknown>, path: string): Violation[] {
    const out: Violation[] = [];
    if (Array.isArray(s.allOf)) for (const sub of s.allOf as Schema[]) out.push(...this.run(value, sub, path));
    if (Array.isArray(s.anyOf)) {
      const results = (s.anyOf as Schema[]).map((sub) => this.run(value, sub, path));
      if (!results.some((r) => r.length === 0)) out.push({ path, message: `must match at least one of the ${results.length} anyOf schemas${closest(results, path)}` });
    }
    if (Array.isArray(s.oneOf)) {
      const results = (s.oneOf as Schema[]).map((sub) => this.run(value, sub, path));
      const passing = results.filter((r) => r.length === 0).length;
      if (passing === 0) out.push({ path, message: `must match exactly one of the ${results.length} oneOf schemas, matches none${closest(results, path)}` });
      else if (passing > 1) out.push({ path, message: `must match exactly one of the ${results.length} oneOf schemas, matches ${passing}` });
    }
    if (s.not !== undefined && this.run(value, s.not as Schema, path).length === 0) out.push({ path, message: 'must not match the schema under "not"' });
    return out;
  }
}

/**
 * The first problem of the closest alternative, so "matches none" says what to fix. A branch of
 * the wrong type is the farthest: the value was plainly meant for another branch.
 */
function closest(results: Violation[][], path: string): string {
  const distance = (r: Violation[]): number => r.length + (r.some((v) => v.path === path && v.message.startsWith('expected ')) ? 1000 : 0);
  const best = [...results].sort((a, b) => distance(a) - distance(b))[0];
  const first = best?.[0];
  return first ? ` (closest: ${first.path || 'value'} ${first.message})` : '';
}

/** Every way `value` breaks `schema` (empty when it conforms). */
export function validateJson(value: unknown, schema: unknown): Violation[] {
  if (typeof schema !== 'boolean' && !isObject(schema)) return [];
  return new Validator(schema).run(value, schema, '');
}
