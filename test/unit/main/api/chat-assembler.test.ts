import { describe, expect, it } from 'vitest';
import { ChatAssembler } from '../../../../main/api/chat-assembler';
import type { ChatChunkChoice, ChatCompletionChunk, ChatUsage } from '../../../../shared/wire/chat';

const base = { id: 'id-1', object: 'chat.completion.chunk' as const, created: 1770774058, model: 'svc-3-mini', system_fingerprint: 'fp_1' };
const chunk = (choices: ChatChunkChoice[], extra: Partial<ChatCompletionChunk> = {}): ChatCompletionChunk => ({ ...base, choices, ...extra });

const usage: ChatUsage = {
  prompt_tokens: 12,
  completion_tokens: 1,
  total_tokens: 303,
  cost_in_usd_ticks: 1466250,
  num_sources_used: 0,
  prompt_tokens_details: { text_tokens: 12, audio_tokens: 0, image_tokens: 0, cached_tokens: 11 },
  completion_tokens_details: { reasoning_tokens: 290, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
};

function assemble(chunks: ChatCompletionChunk[]): ChatAssembler {
  const a = new ChatAssembler();
  for (const c of chunks) a.push(c);
  return a;
}

describe('chat-assembler', () => {
  describe('ChatAssembler.result()', () => {
    it('rebuilds the captured reasoning stream, usage chunk and all', () => {
      const a = assemble([
        chunk([{ index: 0, delta: { role: 'assistant', reasoning_content: 'First' } }]),
        chunk([{ index: 0, delta: { reasoning_content: ' the' } }]),
        chunk([{ index: 0, delta: { content: 'Hello' } }]),
        chunk([{ index: 0, delta: {}, finish_reason: 'stop' }], { citations: ['https://example.com'] }),
        chunk([], { usage }),
      ]);
      expect(a.result()).toEqual({
        id: 'id-1',
        object: 'chat.completion',
        created: 1770774058,
        model: 'svc-3-mini',
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            logprobs: null,
            message: { role: 'assistant', content: 'Hello', reasoning_content: 'First the', refusal: null, tool_calls: null },
          },
        ],
        citations: ['https://example.com'],
        output_files: null,
        service_tier: 'default',
        system_fingerprint: 'fp_1',
        usage,
      });
      expect(a.usage()).toEqual(usage);
    });

    it('keeps n choices apart and in index order, whatever order their chunks interleave in', () => {
      const a = assemble([
        chunk([{ index: 1, delta: { content: 'B1' } }, { index: 0, delta: { content: 'A1' } }]),
        chunk([{ index: 2, delta: { content: 'C' } }]),
        chunk([{ index: 0, delta: { content: 'A2' }, finish_reason: 'length' }]),
        chunk([{ index: 1, delta: { content: 'B2' }, finish_reason: 'stop' }]),
      ]);
      expect(a.result().choices.map((c) => [c.index, c.message.content, c.finish_reason])).toEqual([
        [0, 'A1A2', 'length'],
        [1, 'B1B2', 'stop'],
        [2, 'C', null],
      ]);
    });

    it('merges OpenAI-style fragmented tool-call arguments by index', () => {
      const a = assemble([
        chunk([{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'weather', arguments: '' } }] } }]),
        chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"loc' } } as never] } }]),
        chunk([{ index: 0, delta: { tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'time', arguments: '{}' } }] } }]),
        chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 'ation":"SF"}' } } as never] } }]),
        chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]),
      ]);
      const choice = a.result().choices[0];
      expect(choice.finish_reason).toBe('tool_calls');
      expect(choice.message.tool_calls).toEqual([
        { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"location":"SF"}' } },
        { id: 'call_2', type: 'function', function: { name: 'time', arguments: '{}' } },
      ]);
      expect(choice.message.content).toBeNull();
    });

    it('keeps whole tool calls sent in one delta, with or without an index', () => {
      const a = assemble([
        chunk([{ index: 0, delta: { tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'f', arguments: '{"x":1}' } }, { id: 'call_b', type: 'function', function: { name: 'g', arguments: '{}' } }] } }]),
      ]);
      expect(a.result().choices[0].message.tool_calls?.map((t) => t.id)).toEqual(['call_a', 'call_b']);
    });

    it('concatenates logprobs across chunks', () => {
      const lp = (token: string) => ({ token, logprob: -0.1, bytes: null, top_logprobs: [] });
      const a = assemble([
        chunk([{ index: 0, delta: { content: 'a' }, logprobs: { content: [lp('a')] } }]),
        chunk([{ index: 0, delta: { content: 'b' }, logprobs: { content: [lp('b')] } }]),
      ]);
      expect(a.result().choices[0].logprobs).toEqual({ content: [lp('a'), lp('b')] });
    });

    it('gives the partial output of a cut stream, with zero usage when none arrived', () => {
      const a = assemble([chunk([{ index: 0, delta: { role: 'assistant', content: 'Once upon' } }])]);
      const r = a.result();
      expect(r.choices[0]).toMatchObject({ finish_reason: null, message: { content: 'Once upon' } });
      expect(r.usage.total_tokens).toBe(0);
      expect(a.usage()).toBeNull();
      expect(a.chunks).toBe(1);
    });

    it('is empty before any chunk', () => {
      const a = new ChatAssembler();
      expect(a.result()).toMatchObject({ id: '', choices: [] });
      expect(a.chunks).toBe(0);
    });
  });
});
