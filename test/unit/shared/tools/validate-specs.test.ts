import { describe, expect, it } from 'vitest';
import { validateToolSpecs } from '../../../../shared/tools/validate-specs';
import type { ToolSpec } from '../../../../shared/tools/tool-spec';

const tool = (name: string, over: Partial<ToolSpec> = {}): ToolSpec => ({ name, description: '', parameters: { type: 'object', properties: {} }, ...over });

describe('tools/validate-specs', () => {
  describe('validateToolSpecs()', () => {
    it('accepts a good set of 128 tools', () => {
      expect(validateToolSpecs(Array.from({ length: 128 }, (_, i) => tool(`t${i}`)))).toEqual([]);
    });

    it('refuses a 129th tool', () => {
      expect(validateToolSpecs(Array.from({ length: 129 }, (_, i) => tool(`t${i}`)))).toEqual([
        { index: -1, field: 'tools', message: 'At most 128 tools can be sent (this set has 129).' },
      ]);
    });

    it.each([
      ['', 'Tool 1 needs a name.'],
      ['get weather', '"get weather": a name is 1-64 letters, digits, underscores or dashes (no spaces or dots).'],
      ['a.b', '"a.b": a name is 1-64 letters, digits, underscores or dashes (no spaces or dots).'],
      ['x'.repeat(65), `"${'x'.repeat(65)}": a name is 1-64 letters, digits, underscores or dashes (no spaces or dots).`],
    ])('refuses the name %j', (name, message) => {
      expect(validateToolSpecs([tool(name)])).toEqual([{ index: 0, field: 'name', message }]);
    });

    it('refuses a duplicate name on the second tool', () => {
      expect(validateToolSpecs([tool('f'), tool('g'), tool('f')])).toEqual([
        { index: 2, field: 'name', message: '"f" is already the name of tool 1; names must be unique.' },
      ]);
    });

    it('refuses an overlong description', () => {
      expect(validateToolSpecs([tool('f', { description: 'd'.repeat(1025) })])).toEqual([
        { index: 0, field: 'description', message: '"f": the description is 1025 characters; keep it to 1024.' },
      ]);
    });

    it('needs parameters to be an object schema without mistakes', () => {
      expect(validateToolSpecs([tool('f', { parameters: [] as unknown as Record<string, unknown> })])).toEqual([
        { index: 0, field: 'parameters', message: '"f": parameters must be a JSON schema object.' },
      ]);
      expect(validateToolSpecs([tool('f', { parameters: { type: 'string' } })])).toEqual([
        { index: 0, field: 'parameters', message: '"f": parameters must be an object schema ("type": "object"), since arguments are named.' },
      ]);
      expect(validateToolSpecs([tool('f', { parameters: { type: 'object', properties: { a: { type: 'text' } } } })])).toEqual([
        {
          index: 0,
          field: 'parameters',
          message: '"f" parameters: properties/a/type: unknown type "text": use one of string, number, integer, boolean, object, array, null',
        },
      ]);
    });
  });
});
