import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateMessagesRequest } from '../../../../shared/validate/messages';

const ok = { model: 'svc-4', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] };
const weather = { name: 'get_weather', description: 'Weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } };

function check(extra: Record<string, unknown>, opts?: { reasoningModel?: boolean }) {
  return validateMessagesRequest({ ...ok, ...extra }, opts);
}

describe('validate/messages', () => {
  describe('validateMessagesRequest()', () => {
    it('accepts a minimal request and one with every field set well', () => {
      expect(validateMessagesRequest(ok)).toEqual([]);
      expect(
        check({
          system: [{ type: 'text', text: 'Be brief', cache_control: { type: 'ephemeral' } }],
          metadata: { user_id: 'u-1' },
          stop_sequences: ['a', 'b', 'c', 'd'],
          stream: true,
          temperature: 2,
          top_p: 1,
          top_k: 40,
          tools: [weather],
          tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
        }),
      ).toEqual([]);
      expect(check({ system: 'Be brief', metadata: { user_id: null }, tool_choice: { type: 'auto' }, stop_sequences: null })).toEqual([]);
    });

    it.each([
      ['model', undefined, 'shape', 'model is required: give a model id or alias'],
      ['model', 4, 'shape', 'model must be a string'],
      ['model', ' ', 'value', 'model must not be empty'],
      ['max_tokens', undefined, 'shape', 'max_tokens is required: the most tokens the reply may have'],
      ['max_tokens', 1.5, 'shape', 'max_tokens must be an integer'],
      ['max_tokens', 0, 'value', 'max_tokens must be a positive integer (1 or more)'],
      ['system', 5, 'shape', 'system must be a string or an array of text blocks'],
      ['metadata', 'u1', 'shape', 'metadata must be an object'],
      ['stream', 'yes', 'shape', 'stream must be a boolean'],
      ['temperature', 2.5, 'value', 'temperature must be between 0 and 2'],
      ['temperature', '1', 'shape', 'temperature must be a number'],
      ['top_p', 1.5, 'value', 'top_p must be between 0 and 1'],
      ['top_k', -1, 'value', 'top_k must be 0 or more'],
      ['top_k', 2.5, 'shape', 'top_k must be an integer'],
      ['stop_sequences', 'END', 'shape', 'stop_sequences must be an array of strings'],
      ['tools', {}, 'shape', 'tools must be an array of {name, description, input_schema}'],
      ['tool_choice', 'auto', 'shape', 'tool_choice must be {type: "auto"}, {type: "any"} or {type: "tool", name}'],
      ['tool_choice', { type: 'none' }, 'shape', 'tool_choice must be {type: "auto"}, {type: "any"} or {type: "tool", name}'],
    ])('refuses %s = %j with a %s violation', (field, v, kind, message) => {
      const body: Record<string, unknown> = { ...ok, [field]: v };
      if (v === undefined) delete body[field];
      expect(validateMessagesRequest(body)).toEqual([{ field, kind, message }]);
    });

    it('refuses a body that is not an object', () => {
      expect(validateMessagesRequest([])).toEqual([{ field: 'body', kind: 'shape', message: 'the request body must be a JSON object' }]);
    });

    it('checks metadata.user_id and system blocks', () => {
      expect(check({ metadata: { user_id: 7 } })).toEqual([{ field: 'metadata.user_id', kind: 'shape', message: 'metadata.user_id must be a string' }]);
      expect(check({ system: [{ type: 'image' }] })).toEqual([
        { field: 'system[0]', kind: 'shape', message: 'system[0] must be a text block {type: "text", text}' },
      ]);
      expect(check({ system: [{ type: 'text' }] })).toEqual([{ field: 'system[0].text', kind: 'shape', message: 'system[0].text must be a string' }]);
    });

    describe('stop_sequences', () => {
      it('allows at most four non-empty strings', () => {
        expect(check({ stop_sequences: ['a', 'b', 'c', 'd', 'e'] })).toEqual([
          { field: 'stop_sequences', kind: 'value', message: 'stop_sequences must have at most 4 sequences (got 5)' },
        ]);
        expect(check({ stop_sequences: ['a', ''] })).toEqual([
          { field: 'stop_sequences[1]', kind: 'value', message: 'stop_sequences[1] must not be empty' },
        ]);
        expect(check({ stop_sequences: [3] })).toEqual([{ field: 'stop_sequences[0]', kind: 'shape', message: 'stop_sequences[0] must be a string' }]);
      });

      it('refuses them on a reasoning model', () => {
        expect(check({ stop_sequences: ['END'] }, { reasoningModel: true })).toEqual([
          { field: 'stop_sequences', kind: 'value', message: 'stop_sequences is not supported by reasoning models; remove it or pick another model' },
        ]);
        expect(check({ stop_sequences: [] }, { reasoningModel: true })).toEqual([]);
      });
    });

    describe('tools', () => {
      it('allows at most 128 tools', () => {
        const tools = Array.from({ length: 129 }, (_, i) => ({ ...weather, name: `t${i}` }));
        expect(check({ tools })).toEqual([{ field: 'tools', kind: 'value', message: 'tools must have at most 128 tools (got 129)' }]);
        expect(check({ tools: tools.slice(0, 128) })).toEqual([]);
      });

      it.each([
        [{ description: 'x', input_schema: { type: 'object' } }, 'tools[0].name', 'shape', 'tools[0].name is required and must be a string'],
        [{ ...weather, name: 'has space' }, 'tools[0].name', 'value', 'tools[0].name must be 1-64 letters, digits, underscores or dashes'],
        [{ ...weather, description: 5 }, 'tools[0].description', 'shape', 'tools[0].description must be a string'],
        [{ name: 'x' }, 'tools[0].input_schema', 'shape', 'tools[0].input_schema is required: a JSON Schema object'],
        [{ name: 'x', input_schema: { type: 'array' } }, 'tools[0].input_schema.type', 'value', 'tools[0].input_schema.type must be "object"'],
        ['x', 'tools[0]', 'shape', 'tools[0] must be an object {name, description, input_schema}'],
      ])('refuses tool %j', (tool, field, kind, message) => {
        expect(check({ tools: [tool] })).toEqual([{ field, kind, message }]);
      });

      it('refuses a name defined twice', () => {
        expect(check({ tools: [weather, weather] })).toEqual([
          { field: 'tools[1].name', kind: 'value', message: 'tools[1].name "get_weather" is defined twice; tool names must be unique' },
        ]);
      });
    });

    describe('tool_choice', () => {
      it('needs tools for any and tool', () => {
        expect(check({ tool_choice: { type: 'any' } })).toEqual([
          { field: 'tool_choice', kind: 'value', message: 'tool_choice {type: "any"} forces a tool call, so tools must define at least one tool' },
        ]);
      });

      it('needs a defined name for {type: "tool"}', () => {
        expect(check({ tools: [weather], tool_choice: { type: 'tool' } })).toEqual([
          { field: 'tool_choice.name', kind: 'shape', message: 'tool_choice.name is required for {type: "tool"}' },
        ]);
        expect(check({ tools: [weather], tool_choice: { type: 'tool', name: 'nope' } })).toEqual([
          { field: 'tool_choice.name', kind: 'value', message: 'tool_choice names the tool "nope", which is not defined in tools' },
        ]);
      });

      it('checks disable_parallel_tool_use is a boolean', () => {
        expect(check({ tools: [weather], tool_choice: { type: 'any', disable_parallel_tool_use: 'no' } })).toEqual([
          { field: 'tool_choice.disable_parallel_tool_use', kind: 'shape', message: 'tool_choice.disable_parallel_tool_use must be a boolean' },
        ]);
      });
    });

    it('never throws and always returns violations with a field and a message, whatever the body', () => {
      fc.assert(
        fc.property(fc.anything(), (body) => {
          const out = validateMessagesRequest(body);
          return out.every((v) => typeof v.field === 'string' && v.message.length > 0 && (v.kind === 'shape' || v.kind === 'value'));
        }),
      );
      fc.assert(
        fc.property(fc.dictionary(fc.constantFrom('messages', 'tools', 'tool_choice', 'system', 'stop_sequences'), fc.anything()), (extra) => {
          validateMessagesRequest({ ...ok, ...extra });
          return true;
        }),
      );
    });
  });
});
