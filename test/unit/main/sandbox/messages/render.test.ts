import { describe, expect, it } from 'vitest';
import { jsonPieces, streamFrames, toMessage } from '../../../../../main/sandbox/messages/render';
import type { MessagesPlan } from '../../../../../main/sandbox/messages/plan';

const usage = { input_tokens: 10, output_tokens: 7, cache_read_input_tokens: 2, cache_creation_input_tokens: 0 };
const plan: MessagesPlan = {
  blocks: [
    { type: 'thinking', tokens: ['Hm', 'm'], signature: 'sig==' },
    { type: 'text', tokens: ['Hi', '!'] },
    { type: 'tool_use', id: 'toolu_1', name: 'f', arguments: '{"a":1}' },
  ],
  stopReason: 'tool_use',
  stopSequence: null,
  outputTokens: 7,
};
const meta = { id: 'm-1', model: 'svc-3-mini' };

describe('sandbox/messages/render', () => {
  describe('jsonPieces()', () => {
    it('splits JSON into at most three pieces that join back', () => {
      expect(jsonPieces('{"city":"Paris"}')).toEqual(['{"city', '":"Par', 'is"}']);
      expect(jsonPieces('{}')).toEqual(['{', '}']);
      expect(jsonPieces('')).toEqual([]);
    });
  });

  describe('toMessage()', () => {
    it('renders finished blocks with parsed tool input', () => {
      expect(toMessage(meta, plan, usage)).toEqual({
        id: 'm-1',
        type: 'message',
        role: 'assistant',
        model: 'svc-3-mini',
        content: [
          { type: 'thinking', thinking: 'Hmm', signature: 'sig==' },
          { type: 'text', text: 'Hi!' },
          { type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: 1 } },
        ],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage,
      });
    });
  });

  describe('streamFrames()', () => {
    it('emits the full event sequence with the block index on every block event, pacing only deltas', () => {
      const frames = streamFrames(meta, plan, usage);
      const summary = frames.map((f) => {
        const e = f.event as Record<string, any>;
        const detail = e.type === 'content_block_delta' ? `${e.delta.type}@${e.index}` : 'index' in e ? `@${e.index}` : '';
        return `${e.type}${detail ? ` ${detail}` : ''}${f.paced ? ' (paced)' : ''}`;
      });
      expect(summary).toEqual([
        'message_start',
        'ping',
        'content_block_start @0',
        'content_block_delta thinking_delta@0 (paced)',
        'content_block_delta thinking_delta@0 (paced)',
        'content_block_delta signature_delta@0 (paced)',
        'content_block_stop @0',
        'content_block_start @1',
        'content_block_delta text_delta@1 (paced)',
        'content_block_delta text_delta@1 (paced)',
        'content_block_stop @1',
        'content_block_start @2',
        'content_block_delta input_json_delta@2 (paced)',
        'content_block_delta input_json_delta@2 (paced)',
        'content_block_delta input_json_delta@2 (paced)',
        'content_block_stop @2',
        'message_delta',
        'message_stop',
      ]);
      expect(frames[0].event).toMatchObject({ message: { content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } });
      expect(frames.at(-2)!.event).toEqual({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 7 } });
    });
  });
});
