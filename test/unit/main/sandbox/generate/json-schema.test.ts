import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { generateFromSchema } from '../../../../../main/sandbox/generate/json-schema';
import { Rng } from '../../../../../main/sandbox/generate/rng';
import { schemaErrors } from '../schema-check';

const person = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'age', 'email', 'tags', 'address', 'role', 'active', 'score', 'nickname'],
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 40 },
    age: { type: 'integer', minimum: 18, maximum: 99 },
    email: { type: 'string', format: 'email' },
    tags: { type: 'array', items: { type: 'string', maxLength: 5 }, minItems: 2, maxItems: 4 },
    address: {
      type: 'object',
      required: ['city', 'zip'],
      properties: { city: { type: 'string' }, zip: { type: 'string', minLength: 5, maxLength: 5 } },
    },
    role: { enum: ['admin', 'editor', 'viewer'] },
    active: { type: 'boolean' },
    score: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    nickname: { type: ['string', 'null'] },
    born: { type: 'string', format: 'date' },
  },
};

const recursive = {
  $defs: {
    node: {
      type: 'object',
      required: ['label', 'children'],
      properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } },
    },
  },
  anyOf: [{ $ref: '#/$defs/node' }],
};

describe('sandbox/generate/json-schema', () => {
  describe('generateFromSchema()', () => {
    it('produces values valid against a schema with nesting, enums, bounds and nullable types', () => {
      for (let seed = 0; seed < 50; seed++) {
        const value = generateFromSchema(person, new Rng(seed));
        expect(schemaErrors(person, value)).toEqual([]);
      }
    });

    it('terminates on recursive $ref schemas and stays valid', () => {
      for (let seed = 0; seed < 20; seed++) {
        const value = generateFromSchema(recursive, new Rng(seed));
        expect(schemaErrors(recursive, value)).toEqual([]);
      }
    });

    it('handles const, allOf and oneOf', () => {
      const schema = {
        allOf: [
          { type: 'object', required: ['kind'], properties: { kind: { const: 'circle' } } },
          { type: 'object', required: ['r'], properties: { r: { type: 'number', minimum: 1, maximum: 2 } } },
        ],
      };
      const value = generateFromSchema(schema, new Rng(3)) as Record<string, unknown>;
      expect(value.kind).toBe('circle');
      expect(schemaErrors(schema, value)).toEqual([]);
      const either = { oneOf: [{ type: 'integer', minimum: 5, maximum: 5 }, { type: 'boolean' }] };
      for (let s = 0; s < 10; s++) expect(schemaErrors(either, generateFromSchema(either, new Rng(s)))).toEqual([]);
    });

    it('is deterministic for a seed and varies across seeds', () => {
      expect(generateFromSchema(person, new Rng(42))).toEqual(generateFromSchema(person, new Rng(42)));
      const distinct = new Set(Array.from({ length: 10 }, (_, s) => JSON.stringify(generateFromSchema(person, new Rng(s)))));
      expect(distinct.size).toBeGreaterThan(5);
    });

    it('stays valid for arbitrary flat object schemas', () => {
      const prop = fc.oneof(
        fc.record({ type: fc.constant('string'), minLength: fc.nat(5), maxLength: fc.integer({ min: 5, max: 20 }) }),
        fc.record({ type: fc.constant('integer'), minimum: fc.integer({ min: -50, max: 0 }), maximum: fc.integer({ min: 0, max: 50 }) }),
        fc.record({ type: fc.constant('number'), minimum: fc.constant(-1), maximum: fc.constant(1) }),
        fc.record({ type: fc.constant('boolean') }),
        fc.record({ enum: fc.uniqueArray(fc.string(), { minLength: 1, maxLength: 4 }) }),
        fc.record({ type: fc.constant('array'), items: fc.constant({ type: 'integer' }), minItems: fc.nat(3) }),
      );
      fc.assert(
        fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), prop, { maxKeys: 6 }), fc.nat(), (props, seed) => {
          const schema = { type: 'object', properties: props, required: Object.keys(props) };
          expect(schemaErrors(schema, generateFromSchema(schema, new Rng(seed)))).toEqual([]);
        }),
        { numRuns: 200 },
      );
    });
  });
});
