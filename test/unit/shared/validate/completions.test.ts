import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reasoningRefusal, validateCompleteRequest, validateCompletionsRequest } from '../../../../shared/validate/completions';

const okCompletions = { model: 'svc-4', prompt: 'Once upon a time' };
const okComplete = { model: 'svc-4', prompt: '\n\nHuman: Hi\n\nAssistant:', max_tokens_to_sample: 50 };

function without(body: Record<string, unknown>, field: string, v: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body, [field]: v };
  if (v === undefined) delete out[field];
  return out;
}

describe('validate/completions', () => {
  describe('validateCompletionsRequest()', () => {
    it('accepts a minimal request and one with every field set well', () => {
      expect(validateCompletionsRequest(okCompletions)).toEqual([]);
      expect(
        validateCompletionsRequest({
          ...okCompletions,
          prompt: ['a', 'b'],
          max_tokens: 0,
          n: 2,
          echo: true,
          stop: ['x', 'y', 'z', 'w'],
          seed: 3,
          stream: true,
          stream_options: { include_usage: true },
          temperature: 0,
          top_p: 0.5,
          user: 'u1',
          logprobs: 5,
          frequency_penalty: -2,
          presence_penalty: 2,
          logit_bias: { '50256': -100 },
          suffix: 'end',
        }),
      ).toEqual([]);
      expect(validateCompletionsRequest({ ...okCompletions, stop: '\n', n: 2, best_of: 4 })).toEqual([]);
    });

    it.each([
      ['model', undefined, 'shape', 'model is required: give a model id or alias'],
      ['prompt', undefined, 'shape', 'prompt is required: a string or an array of strings'],
      ['prompt', 5, 'shape', 'prompt must be a string or an array of strings'],
      ['prompt', [], 'value', 'prompt must contain at least one string'],
      ['prompt', [[1, 2]], 'shape', 'prompt[0] must be a string (token-id prompts are not supported)'],
      ['max_tokens', 1.5, 'shape', 'max_tokens must be an integer'],
      ['max_tokens', -1, 'value', 'max_tokens must be 0 or more'],
      ['n', 0, 'value', 'n must be between 1 and 8'],
      ['n', 'two', 'shape', 'n must be an integer'],
      ['echo', 'yes', 'shape', 'echo must be a boolean'],
      ['stop', ['a', 'b', 'c', 'd', 'e'], 'value', 'stop must have at most 4 sequences (got 5)'],
      ['stop', 5, 'shape', 'stop must be an array of strings'],
      ['seed', 1.5, 'shape', 'seed must be an integer'],
      ['stream', 1, 'shape', 'stream must be a boolean'],
      ['stream_options', { include_usage: true }, 'value', 'stream_options is only allowed when stream is true'],
      ['stream_options', {}, 'shape', 'stream_options.include_usage is required and must be a boolean'],
      ['stream_options', true, 'shape', 'stream_options must be an object {include_usage: boolean}'],
      ['temperature', 3, 'value', 'temperature must be between 0 and 2'],
      ['top_p', -0.5, 'value', 'top_p must be between 0 and 1'],
      ['user', 5, 'shape', 'user must be a string'],
      ['logprobs', 6, 'value', 'logprobs must be between 0 and 5'],
      ['logprobs', true, 'shape', 'logprobs must be an integer'],
      ['best_of', 21, 'value', 'best_of must be between 1 and 20'],
      ['frequency_penalty', -3, 'value', 'frequency_penalty must be between -2 and 2'],
      ['presence_penalty', 2.5, 'value', 'presence_penalty must be between -2 and 2'],
      ['logit_bias', { '42': 101 }, 'value', 'logit_bias["42"] must be between -100 and 100'],
      ['logit_bias', { hello: 1 }, 'value', 'logit_bias keys must be token ids (integers); "hello" is not'],
      ['logit_bias', [], 'shape', 'logit_bias must be an object'],
      ['suffix', 1, 'shape', 'suffix must be a string'],
    ])('refuses %s = %j with a %s violation', (field, v, kind, message) => {
      const out = validateCompletionsRequest(without(okCompletions, field, v));
      expect(out).toEqual([{ field: expect.stringMatching(new RegExp(`^${field.replace(/[[\]]/g, '\\$&')}`)), kind, message }]);
    });

    it('needs best_of to be at least n, and 1 when streaming', () => {
      expect(validateCompletionsRequest({ ...okCompletions, n: 3, best_of: 2 })).toEqual([
        { field: 'best_of', kind: 'value', message: 'best_of must be at least n (3)' },
      ]);
      expect(validateCompletionsRequest({ ...okCompletions, stream: true, best_of: 2 })).toEqual([
        { field: 'best_of', kind: 'value', message: 'best_of greater than 1 cannot be combined with stream' },
      ]);
    });

    it('refuses a reasoning model before anything else, naming the endpoints to use', () => {
      expect(validateCompletionsRequest({ model: 'svc-3-mini', prompt: 'hi', stop: ['x'] }, { reasoningModel: true })).toEqual([
        { field: 'model', kind: 'value', message: 'svc-3-mini is a reasoning model and does not support /v1/completions; use /v1/chat/completions or /v1/responses' },
      ]);
      expect(reasoningRefusal('m', '/v1/complete')).toBe('m is a reasoning model and does not support /v1/complete; use /v1/chat/completions or /v1/responses');
    });
  });

  describe('validateCompleteRequest()', () => {
    it('accepts a minimal request and one with every field set well', () => {
      expect(validateCompleteRequest(okComplete)).toEqual([]);
      expect(
        validateCompleteRequest({
          ...okComplete,
          stop_sequences: ['\n\nHuman:'],
          temperature: 1,
          top_p: 0.9,
          top_k: 5,
          metadata: { user_id: 'u' },
          stream: false,
        }),
      ).toEqual([]);
    });

    it.each([
      ['model', 5, 'shape', 'model must be a string'],
      ['prompt', undefined, 'shape', 'prompt is required: a string, e.g. "\\n\\nHuman: Hello\\n\\nAssistant:"'],
      ['prompt', ['a'], 'shape', 'prompt must be a string'],
      ['prompt', '  ', 'value', 'prompt must not be empty'],
      ['max_tokens_to_sample', undefined, 'shape', 'max_tokens_to_sample is required: the most tokens the completion may have'],
      ['max_tokens_to_sample', 0, 'value', 'max_tokens_to_sample must be a positive integer (1 or more)'],
      ['stop_sequences', ['a', 'b', 'c', 'd', 'e'], 'value', 'stop_sequences must have at most 4 sequences (got 5)'],
      ['temperature', -1, 'value', 'temperature must be between 0 and 2'],
      ['top_p', 2, 'value', 'top_p must be between 0 and 1'],
      ['top_k', -2, 'value', 'top_k must be 0 or more'],
      ['metadata', [], 'shape', 'metadata must be an object'],
      ['stream', 'no', 'shape', 'stream must be a boolean'],
      ['stream', true, 'value', 'streaming is not supported on /v1/complete; send stream: false, or use /v1/messages with stream: true'],
    ])('refuses %s = %j with a %s violation', (field, v, kind, message) => {
      expect(validateCompleteRequest(without(okComplete, field, v))).toEqual([{ field, kind, message }]);
    });

    it('refuses a reasoning model', () => {
      expect(validateCompleteRequest({ ...okComplete, model: 'svc-3-mini' }, { reasoningModel: true })).toEqual([
        { field: 'model', kind: 'value', message: 'svc-3-mini is a reasoning model and does not support /v1/complete; use /v1/chat/completions or /v1/responses' },
      ]);
    });
  });

  it('never throws on arbitrary bodies', () => {
    fc.assert(
      fc.property(fc.anything(), fc.boolean(), (body, reasoningModel) => {
        const all = [...validateCompletionsRequest(body, { reasoningModel }), ...validateCompleteRequest(body, { reasoningModel })];
        return all.every((v) => v.message.length > 0);
      }),
    );
  });
});
