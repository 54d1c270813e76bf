import { describe, expect, it } from 'vitest';
import { validateCompactRequest, validateResponsesRequest } from '../../../../shared/validate/responses';

const base = { model: 'svc-4', input: 'Hello' };
const fn = (name: string, extra: Record<string, unknown> = {}) => ({ type: 'function', name, parameters: { type: 'object', properties: {} }, ...extra });
const check = (extra: Record<string, unknown>, reasoningModel = false) => validateResponsesRequest({ ...base, ...extra }, { reasoningModel });

describe('validate/responses', () => {
  describe('validateResponsesRequest()', () => {
    it('accepts a request using every documented field', () => {
      expect(
        check(
          {
            instructions: 'Be brief',
            background: false,
            context_management: [],
            include: ['reasoning.encrypted_content', 'message.output_text.logprobs'],
            logprobs: true,
            top_logprobs: 8,
            max_output_tokens: 100,
            max_turns: 3,
            max_tool_calls: 2,
            metadata: { a: '1' },
            min_p: 0.1,
            top_k: 40,
            parallel_tool_calls: false,
            prompt_cache_key: 'conv-1',
            reasoning: { effort: 'high', summary: 'detailed' },
            search_parameters: { mode: 'on', max_search_results: 5 },
            service_tier: 'priority',
            store: false,
            stream: true,
            temperature: 2,
            top_p: 1,
            text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true } },
            tools: [fn('get_weather'), { type: 'web_search' }],
            tool_choice: { type: 'function', name: 'get_weather' },
            truncation: 'disabled',
            user: 'u1',
            safety_identifier: 's1',
          },
          true,
        ),
      ).toEqual([]);
    });

    it('accepts previous_response_id without instructions and reasoning_effort on a reasoning model', () => {
      expect(check({ previous_response_id: 'abc', reasoning_effort: 'medium' }, true)).toEqual([]);
    });

    it.each([
      ['instructions', 'x', { previous_response_id: 'r1' }, 'instructions cannot be used together with previous_response_id; put the instructions in the first response of the chain, or send them as a system message in input'],
      ['previous_response_id', ' ', {}, 'previous_response_id must not be empty'],
      ['temperature', 2.5, {}, 'temperature must be between 0 and 2'],
      ['top_p', 1.5, {}, 'top_p must be between 0 and 1'],
      ['top_logprobs', 9, {}, 'top_logprobs must be between 0 and 8'],
      ['max_output_tokens', 0, {}, 'max_output_tokens must be a positive integer (1 or more)'],
      ['max_turns', 0, {}, 'max_turns must be a positive integer (1 or more)'],
      ['max_tool_calls', -1, {}, 'max_tool_calls must be a positive integer (1 or more)'],
      ['top_k', 0, {}, 'top_k must be a positive integer (1 or more)'],
      ['min_p', 1.5, {}, 'min_p must be between 0 and 1'],
      ['frequency_penalty', 3, {}, 'frequency_penalty must be between -2 and 2'],
      ['presence_penalty', -2.5, {}, 'presence_penalty must be between -2 and 2'],
      ['background', true, {}, 'background mode is not supported; leave background unset or false'],
      ['reasoning', { effort: 'low' }, {}, 'reasoning.effort is only supported by reasoning models; remove it or pick a reasoning model'],
      ['reasoning_effort', 'high', {}, 'reasoning_effort is only supported by reasoning models; remove it or pick a reasoning model'],
      ['input', '   ', {}, 'input must not be empty'],
      ['input', [], {}, 'input must contain at least one item'],
      ['model', '', {}, 'model must not be empty'],
      ['search_parameters', { to_date: '2025-13-01' }, {}, 'search_parameters.to_date must be a date written YYYY-MM-DD'],
    ])('reports a value error when %s is %j', (field, bad, extra, message) => {
      expect(check({ ...extra, [field]: bad })).toEqual([expect.objectContaining({ message, kind: 'value' })]);
    });

    it.each([
      ['frequency_penalty', 0.5, 'frequency_penalty is not supported by reasoning models; remove it or pick another model'],
      ['presence_penalty', 0.5, 'presence_penalty is not supported by reasoning models; remove it or pick another model'],
    ])('refuses %s on a reasoning model', (field, v, message) => {
      expect(check({ [field]: v }, true)).toEqual([expect.objectContaining({ message, kind: 'value' })]);
    });

    it.each([
      ['temperature', 'hot', 'temperature must be a number'],
      ['store', 'yes', 'store must be a boolean'],
      ['stream', 1, 'stream must be a boolean'],
      ['instructions', 5, 'instructions must be a string'],
      ['previous_response_id', 7, 'previous_response_id must be a string'],
      ['max_output_tokens', 1.5, 'max_output_tokens must be an integer'],
      ['include', 'reasoning.encrypted_content', 'include must be an array of strings'],
      ['metadata', [], 'metadata must be an object'],
      ['parallel_tool_calls', 'no', 'parallel_tool_calls must be a boolean'],
      ['service_tier', 'gold', 'service_tier must be one of "default", "priority"'],
      ['truncation', 'middle', 'truncation must be one of "auto", "disabled"'],
      ['reasoning', 'high', 'reasoning must be an object {effort?, summary?}'],
      ['reasoning_effort', 'max', 'reasoning_effort must be one of "none", "low", "medium", "high"'],
      ['context_management', {}, 'context_management must be an array'],
      ['user', 1, 'user must be a string'],
      ['safety_identifier', 1, 'safety_identifier must be a string'],
      ['prompt_cache_key', 1, 'prompt_cache_key must be a string'],
      ['model', 5, 'model must be a string'],
      ['max_turns', '3', 'max_turns must be an integer'],
      ['min_p', 'low', 'min_p must be a number'],
      ['background', 'no', 'background must be a boolean'],
      ['logprobs', 'yes', 'logprobs must be a boolean'],
      ['top_logprobs', 1.5, 'top_logprobs must be an integer'],
    ])('reports a shape error when %s is %j', (field, bad, message) => {
      expect(check({ [field]: bad }, true)).toEqual([expect.objectContaining({ message, kind: 'shape' })]);
    });

    it('validates reasoning effort and summary values', () => {
      expect(check({ reasoning: { effort: 'max', summary: 'long' } }, true).map((v) => v.message)).toEqual([
        'reasoning.effort must be one of "none", "low", "medium", "high"',
        'reasoning.summary must be one of "auto", "concise", "detailed"',
      ]);
      expect(check({ reasoning: { generate_summary: 'all' } }, true).map((v) => v.message)).toEqual([
        'reasoning.generate_summary must be one of "auto", "concise", "detailed"',
      ]);
    });

    it('requires model and input, and a JSON object body', () => {
      expect(validateResponsesRequest({}).map((v) => v.message)).toEqual([
        'model is required: give a model id or alias',
        'input is required: a string or an array of input items',
      ]);
      expect(validateResponsesRequest([])).toEqual([expect.objectContaining({ message: 'the request body must be a JSON object', kind: 'shape' })]);
    });
  });

  describe('validateCompactRequest()', () => {
    it('accepts input and model', () => {
      expect(validateCompactRequest({ model: 'svc-4', input: [{ role: 'user', content: 'hi' }] })).toEqual([]);
    });

    it('requires input and model', () => {
      expect(validateCompactRequest({}).map((v) => [v.message, v.kind])).toEqual([
        ['model is required: give a model id or alias', 'shape'],
        ['input is required: a string or an array of input items', 'shape'],
      ]);
    });
  });
});
