import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonEqual, validateJson } from '../../../../shared/json-schema/validate';

describe('json-schema/validate', () => {
  describe('validateJson()', () => {
    it('accepts a value that matches every rule', () => {
      const schema = {
        type: 'object',
        properties: { name: { type: 'string', minLength: 1 }, tags: { type: 'array', items: { type: 'string' }, uniqueItems: true } },
        required: ['name'],
        additionalProperties: false,
      };
      expect(validateJson({ name: 'a', tags: ['x', 'y'] }, schema)).toEqual([]);
    });

    it.each([
      [{ type: 'string' }, 3, 'expected string, got integer'],
      [{ type: ['string', 'null'] }, 3, 'expected string or null, got integer'],
      [{ type: 'integer' }, 1.5, 'expected integer, got number'],
      [{ type: 'object' }, [], 'expected object, got array'],
      [{ enum: ['a', 'b'] }, 'c', 'must be one of "a", "b"'],
      [{ const: 42 }, 41, 'must be 42'],
      [{ minimum: 5 }, 4, 'must be at least 5, got 4'],
      [{ maximum: 5 }, 6, 'must be at most 5, got 6'],
      [{ exclusiveMinimum: 5 }, 5, 'must be greater than 5, got 5'],
      [{ exclusiveMaximum: 5 }, 5, 'must be less than 5, got 5'],
      [{ multipleOf: 3 }, 7, 'must be a multiple of 3'],
      [{ minLength: 3 }, 'ab', 'must be at least 3 characters long, got 2'],
      [{ maxLength: 2 }, 'abc', 'must be at most 2 characters long, got 3'],
      [{ pattern: '^[a-z]+$' }, 'A1', 'must match the pattern ^[a-z]+$'],
      [{ minItems: 2 }, [1], 'must have at least 2 items, got 1'],
      [{ maxItems: 1 }, [1, 2], 'must have at most 1 items, got 2'],
      [{ required: ['city'] }, {}, 'missing required property "city"'],
      [{ not: { type: 'string' } }, 'x', 'must not match the schema under "not"'],
      [false, 1, 'no value is allowed here'],
    ])('reports %j for %j as "%s"', (schema, value, message) => {
      expect(validateJson(value, schema)).toEqual([{ path: '', message }]);
    });

    it('counts string length in characters, not UTF-16 units', () => {
      expect(validateJson('😀😀', { maxLength: 2 })).toEqual([]);
    });

    it('accepts an integer where a number is expected', () => {
      expect(validateJson(3, { type: 'number' })).toEqual([]);
    });

    it('names the offending node by JSON pointer, escaping ~ and /', () => {
      const schema = {
        type: 'object',
        properties: { items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } }, 'a/b~c': { type: 'integer' } },
      };
      expect(validateJson({ items: [{ name: 'x' }, { name: 'y' }, { name: 7 }], 'a/b~c': 'no' }, schema)).toEqual([
        { path: '/items/2/name', message: 'expected string, got integer' },
        { path: '/a~1b~0c', message: 'expected integer, got string' },
      ]);
    });

    it('rejects extra properties when additionalProperties is false, and checks them against a schema otherwise', () => {
      expect(validateJson({ a: 1, b: 2 }, { properties: { a: {} }, additionalProperties: false })).toEqual([
        { path: '/b', message: 'property "b" is not allowed (additionalProperties is false)' },
      ]);
      expect(validateJson({ a: 1, b: 'x' }, { properties: { a: {} }, additionalProperties: { type: 'integer' } })).toEqual([
        { path: '/b', message: 'expected integer, got string' },
      ]);
    });

    it('marks the repeated item when items must be unique', () => {
      expect(validateJson([{ a: 1 }, { a: 2 }, { a: 1 }], { uniqueItems: true })).toEqual([{ path: '/2', message: 'duplicates item 0; items must be unique' }]);
    });

    it('needs one anyOf branch to match and names the closest miss', () => {
      const schema = { anyOf: [{ type: 'string' }, { type: 'integer', minimum: 10 }] };
      expect(validateJson('x', schema)).toEqual([]);
      expect(validateJson(3, schema)).toEqual([
        { path: '', message: 'must match at least one of the 2 anyOf schemas (closest: value must be at least 10, got 3)' },
      ]);
    });

    it('needs exactly one oneOf branch to match', () => {
      const schema = { oneOf: [{ type: 'integer' }, { type: 'number' }] };
      expect(validateJson(1.5, schema)).toEqual([]);
      expect(validateJson(1, schema)).toEqual([{ path: '', message: 'must match exactly one of the 2 oneOf schemas, matches 2' }]);
      expect(validateJson('x', schema)[0]?.message).toMatch(/^must match exactly one of the 2 oneOf schemas, matches none/);
    });

    it('applies every allOf branch', () => {
      expect(validateJson(12, { allOf: [{ minimum: 0 }, { maximum: 10 }] })).toEqual([{ path: '', message: 'must be at most 10, got 12' }]);
    });

    it('follows $ref to #/$defs and #/definitions, including recursive schemas', () => {
      const tree = {
        $defs: { node: { type: 'object', properties: { value: { type: 'integer' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } } } },
        $ref: '#/$defs/node',
      };
      expect(validateJson({ value: 1, children: [{ value: 2, children: [{ value: 'x' }] }] }, tree)).toEqual([
        { path: '/children/0/children/0/value', message: 'expected integer, got string' },
      ]);
      expect(validateJson('x', { definitions: { n: { type: 'number' } }, $ref: '#/definitions/n' })).toEqual([{ path: '', message: 'expected number, got string' }]);
    });

    it('says when a $ref points to nothing or outside the schema', () => {
      expect(validateJson(1, { $ref: '#/$defs/missing' })).toEqual([{ path: '', message: '$ref "#/$defs/missing" points to nothing in the schema' }]);
      expect(validateJson(1, { $ref: 'https://example.com/s.json' })[0]?.message).toMatch(/only local references/);
    });

    it('does not loop forever on a $ref to itself', () => {
      expect(validateJson(1, { $defs: { a: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' })).toEqual([]);
    });

    it('accepts any JSON value against the empty schema and true (property)', () => {
      fc.assert(fc.property(fc.jsonValue(), (v) => validateJson(v, {}).length === 0 && validateJson(v, true).length === 0));
    });

    it('accepts a value against an enum of itself (property)', () => {
      fc.assert(fc.property(fc.jsonValue(), (v) => validateJson(v, { enum: [v] }).length === 0 && validateJson(v, { const: v }).length === 0));
    });

    it('reports exactly one type violation when the type is not the value\'s (property)', () => {
      const types = ['string', 'boolean', 'object', 'array', 'null'] as const;
      fc.assert(
        fc.property(fc.jsonValue(), fc.constantFrom(...types), (v, t) => {
          const actual = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
          const violations = validateJson(v, { type: t });
          return actual === t ? violations.length === 0 : violations.length === 1;
        }),
      );
    });
  });

  describe('jsonEqual()', () => {
    it('ignores key order and is true for a value and its JSON round trip (property)', () => {
      expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
      expect(jsonEqual([1, 2], [2, 1])).toBe(false);
      fc.assert(fc.property(fc.jsonValue(), (v) => jsonEqual(v, JSON.parse(JSON.stringify(v)))));
    });
  });
});
