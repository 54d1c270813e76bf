import { describe, expect, it } from 'vitest';
import { chatUsageOf, choicesOf, hasServiceCost, metaOf, RESPONSE_RETENTION_MS } from '../../../shared/text-output';

const response = {
  id: 'r1',
  object: 'response',
  created_at: 1_770_000_000,
  status: 'completed',
  store: true,
  previous_response_id: 'r0',
  output: [
    { id: 'rs_r1', type: 'reasoning', status: 'completed', summary: [{ type: 'summary_text', text: 'Think' }] },
    {
      id: 'msg_r1',
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Hello', logprobs: [], annotations: [{ type: 'url_citation', url: 'https://sandbox.invalid/1', title: 'S1' }] }],
    },
    { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{"city":"Oslo"}', status: 'completed' },
  ],
  usage: { input_tokens: 100, input_tokens_details: { cached_tokens: 40 }, output_tokens: 30, output_tokens_details: { reasoning_tokens: 10 }, total_tokens: 130, num_sources_used: 1, cost_in_usd_ticks: 5000 },
};

describe('text-output', () => {
  describe('choicesOf()', () => {
    it('folds a Response into one choice: summaries as reasoning, text, function calls by call_id', () => {
      const [c] = choicesOf('responses', response);
      expect(c).toMatchObject({ index: 0, reasoning: 'Think', content: 'Hello', finishReason: 'tool_calls' });
      expect(c!.toolCalls).toEqual([{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }]);
    });

    it('gives the incomplete reason as the finish reason of a cut Response', () => {
      const [c] = choicesOf('responses', { ...response, output: [], status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
      expect(c!.finishReason).toBe('max_output_tokens');
    });

    it('reads Message blocks: thinking, text, tool_use input as JSON arguments', () => {
      const [c] = choicesOf('messages', {
        content: [
          { type: 'thinking', thinking: 'Hmm', signature: 's' },
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } },
        ],
        stop_reason: 'tool_use',
      });
      expect(c).toMatchObject({ reasoning: 'Hmm', content: 'Let me check.', finishReason: 'tool_use' });
      expect(JSON.parse(c!.toolCalls[0]!.function.arguments)).toEqual({ city: 'Paris' });
    });

    it('orders legacy completion choices by index and reads /v1/complete', () => {
      const out = choicesOf('completions', { choices: [{ index: 1, text: 'b', finish_reason: 'stop' }, { index: 0, text: 'a', finish_reason: 'length' }] });
      expect(out.map((c) => c.content)).toEqual(['a', 'b']);
      expect(choicesOf('complete', { completion: 'done', stop_reason: 'stop_sequence' })[0]).toMatchObject({ content: 'done', finishReason: 'stop_sequence' });
    });

    it('reads legacy logprobs (token → logprob maps) as entries with sorted alternatives', () => {
      const [c] = choicesOf('completions', {
        choices: [{ index: 0, text: ' hi', finish_reason: 'stop', logprobs: { tokens: [' hi'], token_logprobs: [-0.1], top_logprobs: [{ ' yo': -3, ' hi': -0.1 }], text_offset: [0] } }],
      });
      expect(c!.logprobs).toEqual([
        { token: ' hi', logprob: -0.1, bytes: [32, 104, 105], top_logprobs: [{ token: ' hi', logprob: -0.1, bytes: [32, 104, 105] }, { token: ' yo', logprob: -3, bytes: [32, 121, 111] }] },
      ]);
    });

    it('gives legacy tokens their UTF-8 bytes, null for a lone surrogate', () => {
      const [c] = choicesOf('completions', { choices: [{ index: 0, text: 'é', logprobs: { tokens: ['é', '\ud800'], token_logprobs: [-1, -2], top_logprobs: null } }] });
      expect(c!.logprobs.map((l) => l.bytes)).toEqual([[0xc3, 0xa9], null]);
    });

    it('gives nothing for a missing or non-text output, and tolerates junk fields', () => {
      expect(choicesOf('responses.delete', { id: 'x', deleted: true })).toEqual([]);
      expect(choicesOf('chat.completions', null)).toEqual([]);
      expect(choicesOf('responses', { output: [null, 3, { type: 'message', content: 'oops' }] })).toHaveLength(1);
    });
  });

  describe('chatUsageOf()', () => {
    it('maps Responses usage: reasoning tokens out of output tokens, cached kept', () => {
      expect(chatUsageOf('responses', response.usage)).toMatchObject({
        prompt_tokens: 100,
        completion_tokens: 20,
        total_tokens: 130,
        cost_in_usd_ticks: 5000,
        prompt_tokens_details: { cached_tokens: 40 },
        completion_tokens_details: { reasoning_tokens: 10 },
      });
    });

    it('maps Messages usage: cache reads count as prompt tokens', () => {
      const u = chatUsageOf('messages', { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 20, cache_creation_input_tokens: 0 });
      expect(u).toMatchObject({ prompt_tokens: 30, completion_tokens: 5, total_tokens: 35, prompt_tokens_details: { cached_tokens: 20 } });
      expect(hasServiceCost({ input_tokens: 1 })).toBe(false);
    });

    it('passes chat-shaped usage through and gives null for none', () => {
      const chat = { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 };
      expect(chatUsageOf('completions', chat)).toBe(chat);
      expect(chatUsageOf('responses', null)).toBeNull();
      expect(chatUsageOf('responses', { foo: 1 })).toBeNull();
    });
  });

  describe('metaOf()', () => {
    it('gives a stored response its id, parent and deletion time 30 days after creation', () => {
      const meta = metaOf('responses', response);
      expect(meta).toMatchObject({ responseId: 'r1', previousResponseId: 'r0', stored: true, serviceStatus: 'completed', numSourcesUsed: 1 });
      expect(meta.expiresAt).toBe(1_770_000_000_000 + RESPONSE_RETENTION_MS);
      expect(meta.citations).toEqual([{ url: 'https://sandbox.invalid/1', title: 'S1' }]);
    });

    it('has no deletion time for a response that was not stored', () => {
      expect(metaOf('responses', { ...response, store: false }).expiresAt).toBeNull();
    });

    it('gives the stop reason and sequence of a Message, and chat citations as URLs', () => {
      expect(metaOf('messages', { stop_reason: 'stop_sequence', stop_sequence: 'END' })).toMatchObject({ stopReason: 'stop_sequence', stopSequence: 'END' });
      expect(metaOf('chat.completions', { citations: ['https://a.invalid/'] }).citations).toEqual([{ url: 'https://a.invalid/' }]);
    });
  });
});
