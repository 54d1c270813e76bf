import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  buildCompleteRequest,
  buildCompletionsRequest,
  choiceLabel,
  completeFormFromRequest,
  completionsFormFromRequest,
  defaultCompleteForm,
  defaultCompletionsForm,
  promptChoiceOf,
  sentShape,
} from '@/lib/legacy-form';

describe('legacy-form', () => {
  describe('buildCompletionsRequest()', () => {
    it('sends one prompt as a string and several as an array, leaving unset parameters out', () => {
      const one = buildCompletionsRequest({ ...defaultCompletionsForm('svc-4'), maxTokens: null, stream: false });
      expect(one).toEqual({ model: 'svc-4', prompt: 'Once upon a time', stream: false });
      const many = buildCompletionsRequest({ ...defaultCompletionsForm('svc-4'), prompts: ['a', 'b'], n: 3, stop: ['', 'x'], includeUsage: false });
      expect(many).toEqual({ model: 'svc-4', prompt: ['a', 'b'], max_tokens: 128, n: 3, stop: ['x'], stream: true, stream_options: { include_usage: false } });
    });
  });

  describe('buildCompleteRequest()', () => {
    it('never sends stream, and keeps max_tokens_to_sample even when unset so the validator can ask for it', () => {
      const req = buildCompleteRequest({ ...defaultCompleteForm('svc-4'), maxTokensToSample: null });
      expect(req).toEqual({ model: 'svc-4', prompt: '\n\nHuman: Write a haiku about the sea.\n\nAssistant:', max_tokens_to_sample: null });
      expect('stream' in req).toBe(false);
    });
  });

  describe('promptChoiceOf()', () => {
    it('inverts index = prompt * n + choice for any prompt count and n', () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 127 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 7 }), (prompt, n, j) => {
          const choice = j % n;
          expect(promptChoiceOf(prompt * n + choice, n)).toEqual({ prompt, choice });
        }),
      );
      expect(choiceLabel(2, 2)).toBe('prompt 2, choice 1');
    });
  });

  describe('sentShape()', () => {
    it('reads the prompts and n of a sent body (n defaults to 1)', () => {
      expect(sentShape({ prompt: ['a', 'b'], n: 2 })).toEqual({ prompts: ['a', 'b'], n: 2 });
      expect(sentShape({ prompt: 'a' })).toEqual({ prompts: ['a'], n: 1 });
    });
  });
});

describe('legacy-form round trips', () => {
  it('reads a recorded completions or complete body back into the form that builds it again', () => {
    const completions = { model: 'svc-4', prompt: ['a', 'b'], max_tokens: 10, n: 2, echo: true, stop: ['x'], seed: 3, temperature: 0.4, top_p: 0.9, logprobs: 2, stream: true, stream_options: { include_usage: false } };
    expect(buildCompletionsRequest(completionsFormFromRequest(completions))).toEqual(completions);
    const complete = { model: 'svc-4', prompt: '\n\nHuman: hi\n\nAssistant:', max_tokens_to_sample: 50, stop_sequences: ['\n\nHuman:'], temperature: 1 };
    expect(buildCompleteRequest(completeFormFromRequest(complete))).toEqual(complete);
  });
});
