import { describe, expect, it } from 'vitest';
import { sentTurns } from '@/lib/sent-turns';

describe('sent-turns', () => {
  describe('sentTurns()', () => {
    it('reads chat messages with tool call ids', () => {
      expect(sentTurns('chat.completions', { messages: [{ role: 'user', content: 'Hi' }, { role: 'tool', content: '42', tool_call_id: 'call_1' }] })).toEqual([
        { label: 'user', text: 'Hi' },
        { label: 'tool', text: '42', note: 'call_1' },
      ]);
    });

    it('reads Messages system and blocks, naming tool use and results', () => {
      const turns = sentTurns('messages', {
        system: [{ type: 'text', text: 'Sys' }],
        messages: [
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: { a: 1 } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }, { type: 'image', source: {} }] },
        ],
      });
      expect(turns.map((t) => t.label)).toEqual(['system', 'assistant', 'user']);
      expect(turns[1]!.text).toBe('[tool_use f] {"a":1}');
      expect(turns[2]!.text).toBe('[tool_result t1] ok\n[image]');
    });

    it('reads Responses instructions, string input, items, compaction and the previous id', () => {
      expect(sentTurns('responses', { instructions: 'Be brief', input: 'Hi' })).toEqual([
        { label: 'instructions', text: 'Be brief' },
        { label: 'user', text: 'Hi' },
      ]);
      const turns = sentTurns('responses', {
        previous_response_id: 'r1',
        input: [{ type: 'compaction', id: 'cmp_1', encrypted_content: 'x' }, { type: 'function_call_output', call_id: 'c1', output: '{}' }, { role: 'user', content: [{ type: 'input_text', text: 'Go on' }] }],
      });
      expect(turns).toEqual([
        { label: 'compaction', text: 'Earlier turns, compacted by the service (opaque).', note: 'after r1' },
        { label: 'function_call_output', text: '{}', note: 'c1' },
        { label: 'user', text: 'Go on' },
      ]);
    });

    it('reads legacy prompts, numbered when there are several', () => {
      expect(sentTurns('complete', { prompt: '\n\nHuman: x' })).toEqual([{ label: 'prompt', text: '\n\nHuman: x' }]);
      expect(sentTurns('completions', { prompt: ['a', 'b'] }).map((t) => t.label)).toEqual(['prompt 1', 'prompt 2']);
      expect(sentTurns('completions', null)).toEqual([]);
    });
    it('lists the images each turn sent by their blob reference (chat, Responses after instructions, Messages after system)', () => {
      const a = { $blob: 'a'.repeat(64), mime: 'image/png', encoding: 'data-url' };
      const b = { $blob: 'b'.repeat(64), mime: 'image/jpeg', encoding: 'base64' };
      const chat = sentTurns('chat.completions', { messages: [{ role: 'system', content: 'Look.' }, { role: 'user', content: [{ type: 'text', text: 'This?' }, { type: 'image_url', image_url: { url: a } }] }] });
      expect(chat.map((t) => t.images)).toEqual([undefined, ['a'.repeat(64)]]);
      const responses = sentTurns('responses', { instructions: 'Be brief.', input: [{ role: 'user', content: [{ type: 'input_image', image_url: a }] }] });
      expect(responses.map((t) => [t.label, t.images])).toEqual([['instructions', undefined], ['user', ['a'.repeat(64)]]]);
      const messages = sentTurns('messages', { system: 'Sys', messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: b } }] }] });
      expect(messages.map((t) => [t.label, t.images])).toEqual([['system', undefined], ['user', ['b'.repeat(64)]]]);
    });
  });
});
