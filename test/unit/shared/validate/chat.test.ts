import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { describeViolations, validateChatRequest } from '../../../../shared/validate/chat';

const ok = { model: 'svc-4', messages: [{ role: 'user', content: 'Hi' }] };
const tool = (name: string) => ({ type: 'function', function: { name, parameters: { type: 'object', properties: {} } } });

function check(extra: Record<string, unknown>, opts?: { reasoningModel?: boolean }) {
  return validateChatRequest({ ...ok, ...extra }, opts);
}

describe('validate/chat', () => {
  describe('validateChatRequest()', () => {
    it('accepts a minimal valid request and one with every field set well', () => {
      expect(validateChatRequest(ok)).toEqual([]);
      expect(
        check({
          deferred: false,
          frequency_penalty: 0.5,
          presence_penalty: -0.5,
          logit_bias: { '1234': -100, '42': 100 },
          logprobs: true,
          top_logprobs: 8,
          max_completion_tokens: 100,
          max_tokens: 50,
          n: 2,
          parallel_tool_calls: false,
          prompt_cache_key: 'abc',
          response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' }, strict: true } },
          search_parameters: { from_date: '2025-01-01', to_date: null, max_search_results: 5, mode: 'auto', return_citations: true, sources: [] },
          seed: 7,
          service_tier: 'priority',
          stop: ['a', 'b', 'c', 'd'],
          stream: true,
          stream_options: { include_usage: true },
          temperature: 2,
          top_p: 0,
          tools: [tool('weather')],
          tool_choice: { type: 'function', function: { name: 'weather' } },
          user: 'u1',
          web_search_options: {},
        }),
      ).toEqual([]);
    });

    it.each([
      ['temperature', 2.5, 'temperature must be between 0 and 2'],
      ['temperature', -0.1, 'temperature must be between 0 and 2'],
      ['top_p', 1.5, 'top_p must be between 0 and 1'],
      ['frequency_penalty', 3, 'frequency_penalty must be between -2 and 2'],
      ['presence_penalty', -2.5, 'presence_penalty must be between -2 and 2'],
      ['n', 0, 'n must be between 1 and 8'],
      ['n', 9, 'n must be between 1 and 8'],
      ['top_logprobs', 9, 'top_logprobs must be between 0 and 8'],
      ['max_completion_tokens', 0, 'max_completion_tokens must be a positive integer (1 or more)'],
      ['max_tokens', -5, 'max_tokens must be a positive integer (1 or more)'],
      ['stop', ['a', 'b', 'c', 'd', 'e'], 'stop must have at most 4 sequences (got 5)'],
      ['stop', [''], 'stop[0] must not be empty'],
      ['logit_bias', { '12': 101 }, 'logit_bias["12"] must be between -100 and 100'],
      ['logit_bias', { hello: 1 }, 'logit_bias keys must be token ids (integers); "hello" is not'],
      ['messages', [], 'messages must contain at least one message'],
      ['model', '  ', 'model must not be empty'],
      ['search_parameters', { from_date: '01/02/2025' }, 'search_parameters.from_date must be a date written YYYY-MM-DD'],
      ['reasoning_effort', 'high', 'reasoning_effort is only supported by reasoning models; remove it or pick a reasoning model'],
      ['stream_options', { include_usage: true }, 'stream_options is only allowed when stream is true'],
    ])('reports a value error when %s is %j', (field, bad, message) => {
      expect(check({ [field]: bad })).toEqual([expect.objectContaining({ message, kind: 'value' })]);
    });

    it.each([
      ['temperature', 'hot', 'temperature must be a number'],
      ['n', 1.5, 'n must be an integer'],
      ['seed', 'x', 'seed must be an integer'],
      ['stream', 'yes', 'stream must be a boolean'],
      ['logprobs', 1, 'logprobs must be a boolean'],
      ['stop', 5, 'stop must be an array of strings'],
      ['tools', {}, 'tools must be an array of function tools'],
      ['service_tier', 'gold', 'service_tier must be one of "default", "priority"'],
      ['reasoning_effort', 'max', 'reasoning_effort must be one of "none", "low", "medium", "high"'],
      ['response_format', { type: 'xml' }, 'response_format.type must be one of "text", "json_object", "json_schema"'],
      ['response_format', { type: 'json_schema' }, 'response_format.json_schema is required for type "json_schema": {name, schema, strict?}'],
      ['stream_options', {}, 'stream_options.include_usage is required and must be a boolean'],
      ['user', 5, 'user must be a string'],
    ])('reports a shape error when %s is %j', (field, bad, message) => {
      expect(check({ [field]: bad })).toEqual([expect.objectContaining({ message, kind: 'shape' })]);
    });

    it('reports missing model and messages as shape errors', () => {
      expect(validateChatRequest({})).toEqual([
        { field: 'model', message: 'model is required: give a model id or alias', kind: 'shape' },
        { field: 'messages', message: 'messages is required: send at least one message', kind: 'shape' },
      ]);
      expect(validateChatRequest([])).toEqual([{ field: 'body', message: 'the request body must be a JSON object', kind: 'shape' }]);
    });

    it('needs logprobs for top_logprobs', () => {
      expect(check({ top_logprobs: 3 })).toEqual([
        { field: 'top_logprobs', message: 'top_logprobs needs logprobs set to true', kind: 'value' },
      ]);
      expect(check({ top_logprobs: 3, logprobs: false })).toHaveLength(1);
      expect(check({ top_logprobs: 3, logprobs: true })).toEqual([]);
    });

    it('refuses penalties and stop on reasoning models but allows reasoning_effort', () => {
      const reasoning = { reasoningModel: true };
      expect(check({ frequency_penalty: 0.1 }, reasoning)[0].message).toBe(
        'frequency_penalty is not supported by reasoning models; remove it or pick another model',
      );
      expect(check({ presence_penalty: 0 }, reasoning)[0].field).toBe('presence_penalty');
      expect(check({ stop: ['x'] }, reasoning)[0].message).toBe('stop is not supported by reasoning models; remove it or pick another model');
      expect(check({ reasoning_effort: 'high' }, reasoning)).toEqual([]);
    });

    it('accepts a single stop string as one sequence', () => {
      expect(check({ stop: 'END' })).toEqual([]);
    });

    it('refuses deferred together with stream', () => {
      expect(check({ stream: true, deferred: true })).toEqual([
        expect.objectContaining({ field: 'deferred', kind: 'value' }),
      ]);
    });

    it('checks the json_schema name and schema', () => {
      expect(check({ response_format: { type: 'json_schema', json_schema: { name: 'has space', schema: {} } } })[0].message).toBe(
        'response_format.json_schema.name must be 1-64 letters, digits, underscores or dashes',
      );
      expect(check({ response_format: { type: 'json_schema', json_schema: { name: 'a' } } })[0].message).toBe(
        'response_format.json_schema.schema is required: a JSON Schema object',
      );
      expect(check({ response_format: { type: 'json_object' } })).toEqual([]);
      expect(check({ response_format: { type: 'text' } })).toEqual([]);
    });

    it('ignores unset (null) optional fields', () => {
      const nulls = Object.fromEntries(
        ['temperature', 'top_p', 'n', 'stop', 'tools', 'seed', 'logit_bias', 'max_tokens', 'user', 'logprobs'].map((k) => [k, null]),
      );
      expect(check(nulls)).toEqual([]);
    });

    it('never throws and always returns messages that name a field, whatever the body', () => {
      fc.assert(
        fc.property(fc.anything(), fc.dictionary(fc.string(), fc.anything()), (anything, dict) => {
          for (const body of [anything, { ...ok, ...dict }]) {
            for (const v of validateChatRequest(body)) {
              expect(v.message.length).toBeGreaterThan(0);
              expect(v.message).toContain(v.field.split(/[.[]/)[0] === 'body' ? 'body' : v.field.split(/[.[]/)[0]);
            }
          }
        }),
        { numRuns: 300 },
      );
    });
  });

  describe('describeViolations()', () => {
    it('gives the first message and counts the rest', () => {
      const v = check({ temperature: 5, top_p: 3 });
      expect(describeViolations(v)).toBe(
        'temperature must be between 0 and 2 (and 1 more: top_p must be between 0 and 1)',
      );
      expect(describeViolations([])).toBe('');
    });
  });
});
