import { describe, expect, it } from 'vitest';
import { checkSchema, describeSchemaProblem } from '../../../../shared/json-schema/check-schema';

describe('json-schema/check-schema', () => {
  describe('checkSchema()', () => {
    it('finds nothing wrong with a usable schema', () => {
      expect(
        checkSchema({
          type: 'object',
          properties: { city: { type: 'string', pattern: '^[A-Z]' }, days: { type: 'integer', minimum: 1 }, unit: { enum: ['c', 'f'] } },
          required: ['city'],
          additionalProperties: false,
          $defs: { d: { type: ['string', 'null'] } },
        }),
      ).toEqual([]);
    });

    it.each([
      [{ type: 'strng' }, '/type', 'unknown type "strng": use one of string, number, integer, boolean, object, array, null'],
      [{ type: [] }, '/type', '"type" must not be an empty list'],
      [{ properties: [] }, '/properties', '"properties" must be an object mapping names to schemas'],
      [{ properties: { a: 'string' } }, '/properties/a', 'a schema must be an object (or true/false)'],
      [{ required: 'a' }, '/required', '"required" must be an array of property names'],
      [{ properties: { a: {} }, required: ['b'], additionalProperties: false }, '/required', '"required" names "b", which is not in "properties" (and additionalProperties is false)'],
      [{ minimum: '1' }, '/minimum', '"minimum" must be a number'],
      [{ multipleOf: 0 }, '/multipleOf', '"multipleOf" must be greater than 0'],
      [{ maxLength: -1 }, '/maxLength', '"maxLength" must be a whole number, 0 or more'],
      [{ enum: 'a' }, '/enum', '"enum" must be an array of allowed values'],
      [{ enum: [] }, '/enum', '"enum" must list at least one value'],
      [{ anyOf: [] }, '/anyOf', '"anyOf" must be a non-empty array of schemas'],
      [{ uniqueItems: 'yes' }, '/uniqueItems', '"uniqueItems" must be true or false'],
      [{ $ref: '#/$defs/x' }, '/$ref', '"$ref" #/$defs/x points to nothing in this schema'],
      [{ items: { type: 'list' } }, '/items/type', 'unknown type "list": use one of string, number, integer, boolean, object, array, null'],
    ])('reports %j at %s', (schema, path, message) => {
      expect(checkSchema(schema)).toEqual([{ path, message }]);
    });

    it('reports an invalid pattern with the engine\'s reason', () => {
      const [problem] = checkSchema({ pattern: '(' });
      expect(problem?.path).toBe('/pattern');
      expect(problem?.message).toMatch(/^"pattern" is not a valid regular expression: /);
    });

    it('says a non-object is not a schema', () => {
      expect(checkSchema([])).toEqual([{ path: '', message: 'a schema must be an object (or true/false)' }]);
    });
  });

  describe('describeSchemaProblem()', () => {
    it('puts the location before the message', () => {
      expect(describeSchemaProblem({ path: '/properties/a/type', message: 'x' })).toBe('properties/a/type: x');
      expect(describeSchemaProblem({ path: '', message: 'x' })).toBe('x');
    });
  });
});
