import { describe, expect, it } from 'vitest';
import { validateResponseToolChoice, validateResponseTools, validateTextFormat } from '../../../../shared/validate/responses-tools';

const fn = (name: string, extra: Record<string, unknown> = {}) => ({ type: 'function', name, parameters: { type: 'object' }, ...extra });

describe('validate/responses-tools', () => {
  describe('validateResponseTools()', () => {
    it('accepts flat function tools and search tools', () => {
      expect(
        validateResponseTools([fn('a', { description: 'd', strict: true }), { type: 'function', name: 'b' }, { type: 'web_search', allowed_domains: ['x.com'] }, { type: 'web_search_preview' }, { type: 'x_search' }]),
      ).toEqual([]);
    });

    it('allows 128 tools and refuses 129', () => {
      expect(validateResponseTools(Array.from({ length: 128 }, (_, i) => fn(`f${i}`)))).toEqual([]);
      expect(validateResponseTools(Array.from({ length: 129 }, (_, i) => fn(`f${i}`)))).toEqual([
        expect.objectContaining({ message: 'tools must have at most 128 tools (got 129)', kind: 'value' }),
      ]);
    });

    it.each([
      [[fn('has space')], 'tools[0].name must be 1-64 letters, digits, underscores or dashes'],
      [[fn('a'.repeat(65))], 'tools[0].name must be 1-64 letters, digits, underscores or dashes'],
      [[fn('a'), fn('a')], 'tools[1].name "a" is defined twice; tool names must be unique'],
      [[fn('a', { parameters: { type: 'array' } })], 'tools[0].parameters must be a JSON Schema of type "object" (got type "array")'],
      [[{ type: 'code_interpreter' }], 'tools[0].type "code_interpreter" is not supported by the sandbox; use function or web_search tools'],
    ])('reports a value error for %j', (tools, message) => {
      expect(validateResponseTools(tools)).toEqual([expect.objectContaining({ message, kind: 'value' })]);
    });

    it.each([
      [{}, 'tools must be an array of tool objects'],
      [[5], 'tools[0] must be an object with a type'],
      [[{ name: 'a' }], 'tools[0].type is required'],
      [[{ type: 'plugin' }], 'tools[0].type must be one of "function", "web_search", "web_search_preview", "x_search"'],
      [[{ type: 'function', function: { name: 'a' } }], 'tools[0].name is required (responses tools are flat: {type, name, parameters}, not nested under "function")'],
      [[fn('a', { parameters: 'object' })], 'tools[0].parameters must be a JSON Schema object'],
      [[fn('a', { description: 3 })], 'tools[0].description must be a string'],
      [[fn('a', { strict: 'yes' })], 'tools[0].strict must be a boolean'],
      [[{ type: 'web_search', allowed_domains: 'x.com' }], 'tools[0].allowed_domains must be an array'],
    ])('reports a shape error for %j', (tools, message) => {
      expect(validateResponseTools(tools)).toEqual([expect.objectContaining({ message, kind: 'shape' })]);
    });
  });

  describe('validateResponseToolChoice()', () => {
    it('accepts the strings and a named defined function', () => {
      for (const c of ['none', 'auto', 'required']) expect(validateResponseToolChoice(c, [fn('a')])).toEqual([]);
      expect(validateResponseToolChoice({ type: 'function', name: 'a' }, [fn('a')])).toEqual([]);
    });

    it.each([
      ['required', [], 'tool_choice "required" needs at least one tool in tools', 'value'],
      [{ type: 'function', name: 'b' }, [fn('a')], 'tool_choice names the function "b", which is not defined in tools', 'value'],
      ['always', [fn('a')], 'tool_choice must be "none", "auto", "required" or {type: "function", name}', 'shape'],
      [{ type: 'function', function: { name: 'a' } }, [fn('a')], 'tool_choice must be "none", "auto", "required" or {type: "function", name}', 'shape'],
    ])('reports %j with tools %j', (choice, tools, message, kind) => {
      expect(validateResponseToolChoice(choice, tools)).toEqual([expect.objectContaining({ message, kind })]);
    });
  });

  describe('validateTextFormat()', () => {
    it('accepts the three variants', () => {
      expect(validateTextFormat({ format: { type: 'text' } })).toEqual([]);
      expect(validateTextFormat({ format: { type: 'json_object' } })).toEqual([]);
      expect(validateTextFormat({ format: { type: 'json_schema', schema: { type: 'object' }, name: 'x', description: 'd', strict: true } })).toEqual([]);
      expect(validateTextFormat({})).toEqual([]);
    });

    it.each([
      ['x', 'text must be an object {format: {...}}', 'shape'],
      [{ format: 'json' }, 'text.format must be an object with a type', 'shape'],
      [{ format: { type: 'xml' } }, 'text.format.type must be one of "text", "json_object", "json_schema"', 'shape'],
      [{ format: { type: 'json_schema' } }, 'text.format.schema is required for type "json_schema": a JSON Schema object', 'shape'],
      [{ format: { type: 'json_schema', json_schema: { schema: {} } } }, 'text.format is flat in the Responses interface: {type: "json_schema", name, schema}, not nested under json_schema', 'shape'],
      [{ format: { type: 'json_schema', schema: [] } }, 'text.format.schema must be an object', 'shape'],
      [{ format: { type: 'json_schema', schema: {}, name: 'bad name' } }, 'text.format.name must be 1-64 letters, digits, underscores or dashes', 'value'],
      [{ format: { type: 'json_schema', schema: {}, strict: 'yes' } }, 'text.format.strict must be a boolean', 'shape'],
      [{ format: { type: 'json_schema', schema: {}, description: 1 } }, 'text.format.description must be a string', 'shape'],
    ])('reports %j', (text, message, kind) => {
      expect(validateTextFormat(text)).toEqual([expect.objectContaining({ message, kind })]);
    });
  });
});
