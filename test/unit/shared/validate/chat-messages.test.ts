import { describe, expect, it } from 'vitest';
import { validateMessages } from '../../../../shared/validate/chat-messages';

describe('validate/chat-messages', () => {
  describe('validateMessages()', () => {
    it('accepts every role with its usual content', () => {
      expect(
        validateMessages([
          { role: 'system', content: 'Be brief.' },
          { role: 'developer', content: 'Use metric units.' },
          {
            role: 'user',
            name: 'ann',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } },
              { type: 'file', file: { file_id: 'file_1' } },
            ],
          },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'call_1', content: '{"ok":true}' },
          { role: 'assistant', content: 'Done.', reasoning_content: 'thinking' },
        ]),
      ).toEqual([]);
    });

    it('requires the array, and at least one message', () => {
      expect(validateMessages(undefined)[0]).toEqual({ field: 'messages', message: 'messages is required: send at least one message', kind: 'shape' });
      expect(validateMessages('hi')[0].message).toBe('messages must be an array of message objects');
      expect(validateMessages([])[0].kind).toBe('value');
    });

    it.each([
      [[{ content: 'x' }], 'messages[0].role is required'],
      [[{ role: 'robot', content: 'x' }], 'messages[0].role must be one of "system", "developer", "user", "assistant", "tool"'],
      [[{ role: 'user' }], 'messages[0].content is required for a user message'],
      [[{ role: 'user', content: 5 }], 'messages[0].content must be a string or an array of content parts'],
      [[{ role: 'user', content: [{ type: 'audio' }] }], 'messages[0].content[0].type must be one of "text", "image_url", "file", "text_file"'],
      [[{ role: 'user', content: [{ type: 'text' }] }], 'messages[0].content[0].text must be a string'],
      [[{ role: 'user', content: [{ type: 'image_url', image_url: 'x' }] }], 'messages[0].content[0].image_url must be an object with a url string'],
      [[{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'u', detail: 'max' } }] }], 'messages[0].content[0].image_url.detail must be one of "auto", "low", "high"'],
      [[{ role: 'tool', content: 'r' }], 'messages[0].tool_call_id is required: a tool message answers one tool call'],
      [[{ role: 'assistant' }], 'messages[0].content is required unless the assistant message has tool_calls'],
      [[{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: {} } }] }], 'messages[0].tool_calls[0].function.arguments must be a JSON string'],
      [[{ role: 'user', content: 'x', name: 3 }], 'messages[0].name must be a string'],
    ])('reports %j as "%s"', (messages, message) => {
      expect(validateMessages(messages).map((v) => v.message)).toContain(message);
    });
  });
});
