import { describe, expect, it } from 'vitest';
import { outputPreviewText, outputTextOf, requestPreview, requestText } from '../../../../main/services/chat-text';

describe('chat-text', () => {
  describe('requestText() / outputTextOf() for chat', () => {
    it('joins chat message texts and a completion’s reasoning, content and calls', () => {
      expect(requestText('chat.completions', { messages: [{ role: 'system', content: 'Be brief' }, { role: 'user', content: [{ type: 'text', text: 'Hi' }] }] })).toBe('Be brief\n\nHi');
      const completion = {
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Hello', reasoning_content: 'Think', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] } }],
      };
      expect(outputTextOf('chat.completions', completion as never)).toBe('Think\n\nHello\n\nf({})');
    });
  });

  describe('requestText()', () => {
    it('indexes Responses instructions and every input item’s text', () => {
      const body = {
        instructions: 'Answer in French',
        input: [
          { role: 'user', content: [{ type: 'input_text', text: 'Where is Lyon?' }] },
          { type: 'function_call', call_id: 'c1', name: 'lookup', arguments: '{"q":"Lyon"}' },
          { type: 'function_call_output', call_id: 'c1', output: 'France' },
          { type: 'compaction', id: 'cmp_1', encrypted_content: 'opaque' },
        ],
      };
      expect(requestText('responses', body)).toBe('Answer in French\n\nWhere is Lyon?\n\nlookup({"q":"Lyon"})\n\nFrance');
      expect(requestText('responses', { input: 'Just text' })).toBe('Just text');
    });

    it('indexes the Messages system prompt, text blocks and tool results', () => {
      const body = {
        system: [{ type: 'text', text: 'You are a guide' }],
        messages: [
          { role: 'user', content: 'Plan a trip' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'maps', input: { city: 'Oslo' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'Fjords' }] }] },
        ],
      };
      expect(requestText('messages', body)).toBe('You are a guide\n\nPlan a trip\n\nmaps({"city":"Oslo"})\n\nFjords');
    });

    it('indexes every legacy prompt', () => {
      expect(requestText('completions', { prompt: ['one', 'two'] })).toBe('one\n\ntwo');
      expect(requestText('complete', { prompt: '\n\nHuman: hi' })).toBe('\n\nHuman: hi');
    });
  });

  describe('requestPreview()', () => {
    it('shows the last user message, else the last prompt', () => {
      expect(requestPreview('responses', { instructions: 'sys', input: [{ role: 'user', content: 'first' }, { role: 'assistant', content: 'a' }, { role: 'user', content: 'second' }] })).toBe('second');
      expect(requestPreview('completions', { prompt: ['a', 'b'] })).toBe('b');
      expect(requestPreview('messages', { messages: [{ role: 'user', content: 'hey' }] })).toBe('hey');
      expect(requestPreview('responses', { input: [{ type: 'function_call_output', call_id: 'c', output: '42' }] })).toBe('42');
    });
  });

  describe('outputTextOf() / outputPreviewText()', () => {
    it('indexes reasoning, text and calls, and previews the text first', () => {
      const response = {
        output: [
          { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Considering' }] },
          { type: 'message', content: [{ type: 'output_text', text: 'Lyon is in France' }] },
        ],
      };
      expect(outputTextOf('responses', response)).toBe('Considering\n\nLyon is in France');
      expect(outputPreviewText('responses', response)).toBe('Lyon is in France');
      const onlyCall = { content: [{ type: 'tool_use', id: 't', name: 'maps', input: { a: 1 } }] };
      expect(outputPreviewText('messages', onlyCall)).toBe('maps({"a":1})');
      expect(outputTextOf('complete', { completion: 'Sure.' })).toBe('Sure.');
    });
  });
});
