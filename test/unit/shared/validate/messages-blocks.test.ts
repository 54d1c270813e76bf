import { describe, expect, it } from 'vitest';
import { validateMessagesTurns } from '../../../../shared/validate/messages-blocks';

const user = (content: unknown) => ({ role: 'user', content });
const assistant = (content: unknown) => ({ role: 'assistant', content });
const toolUse = { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } };

describe('validate/messages-blocks', () => {
  describe('validateMessagesTurns()', () => {
    it('accepts every block kind in the turn it belongs to', () => {
      expect(
        validateMessagesTurns([
          user([
            { type: 'text', text: 'Look', cache_control: { type: 'ephemeral' } },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
          ]),
          assistant([{ type: 'thinking', thinking: 'hmm', signature: 'sig' }, { type: 'redacted_thinking', data: 'xx' }, { type: 'text', text: 'ok' }, toolUse]),
          user([
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '18C' },
            { type: 'tool_result', tool_use_id: 'toolu_1', is_error: true, content: [{ type: 'text', text: 'oops' }] },
          ]),
          assistant('Done'),
        ]),
      ).toEqual([]);
    });

    it.each([
      [undefined, 'messages', 'shape', 'messages is required: send at least one user message'],
      ['hi', 'messages', 'shape', 'messages must be an array of {role, content} objects'],
      [[], 'messages', 'value', 'messages must contain at least one message'],
      [[5], 'messages[0]', 'shape', 'messages[0] must be an object with a role and content'],
      [[{ content: 'hi' }], 'messages[0].role', 'shape', 'messages[0].role is required ("user" or "assistant")'],
      [[{ role: 'system', content: 'hi' }], 'messages[0].role', 'shape', 'messages[0].role must be one of "user", "assistant"'],
      [[{ role: 'user' }], 'messages[0].content', 'shape', 'messages[0].content is required: a string or an array of content blocks'],
      [[user(7)], 'messages[0].content', 'shape', 'messages[0].content must be a string or an array of content blocks'],
      [[user([])], 'messages[0].content', 'value', 'messages[0].content must not be an empty array'],
      [[user(['x'])], 'messages[0].content[0]', 'shape', 'messages[0].content[0] must be a content block object with a type'],
      [[user([{ text: 'x' }])], 'messages[0].content[0].type', 'shape', 'messages[0].content[0].type is required'],
      [
        [user([{ type: 'video' }])],
        'messages[0].content[0].type',
        'shape',
        'messages[0].content[0].type must be one of "text", "image", "tool_result", "tool_use", "thinking", "redacted_thinking"',
      ],
      [[user([{ type: 'text' }])], 'messages[0].content[0].text', 'shape', 'messages[0].content[0].text must be a string'],
      [
        [user([{ type: 'text', text: 'x', cache_control: 'yes' }])],
        'messages[0].content[0].cache_control',
        'shape',
        'messages[0].content[0].cache_control must be an object',
      ],
    ])('refuses messages %j', (messages, field, kind, message) => {
      expect(validateMessagesTurns(messages)).toEqual([{ field, kind, message }]);
    });

    it('refuses blocks in the wrong role', () => {
      expect(validateMessagesTurns([user([toolUse])])).toEqual([
        { field: 'messages[0].content[0].type', kind: 'value', message: 'messages[0].content[0] is a tool_use block, which belongs in assistant turns, not user turns' },
      ]);
      expect(validateMessagesTurns([user('hi'), assistant([{ type: 'image', source: { type: 'url', url: 'https://x' } }])])).toEqual([
        { field: 'messages[1].content[0].type', kind: 'value', message: 'messages[1].content[0] is an image block, which belongs in user turns, not assistant turns' },
      ]);
    });

    it.each([
      [{}, 'messages[0].content[0].source', 'shape', 'messages[0].content[0].source is required: {type: "base64", media_type, data} or {type: "url", url}'],
      [{ source: { type: 'file' } }, 'messages[0].content[0].source.type', 'shape', 'messages[0].content[0].source.type must be one of "base64", "url"'],
      [{ source: { type: 'url' } }, 'messages[0].content[0].source.url', 'shape', 'messages[0].content[0].source.url must be a string'],
      [{ source: { type: 'url', url: 'ftp://x' } }, 'messages[0].content[0].source.url', 'value', 'messages[0].content[0].source.url must be an http(s) URL'],
      [
        { source: { type: 'base64', media_type: 'image/tiff', data: 'AA==' } },
        'messages[0].content[0].source.media_type',
        'shape',
        'messages[0].content[0].source.media_type must be one of "image/jpeg", "image/png", "image/gif", "image/webp"',
      ],
      [{ source: { type: 'base64', media_type: 'image/png' } }, 'messages[0].content[0].source.data', 'shape', 'messages[0].content[0].source.data must be a base64 string'],
      [{ source: { type: 'base64', media_type: 'image/png', data: '' } }, 'messages[0].content[0].source.data', 'value', 'messages[0].content[0].source.data must not be empty'],
      [
        { source: { type: 'base64', media_type: 'image/png', data: 'data:image/png;base64,AA==' } },
        'messages[0].content[0].source.data',
        'value',
        'messages[0].content[0].source.data is not valid base64 (send the bytes without a data: URL prefix)',
      ],
    ])('refuses image block %j', (extra, field, kind, message) => {
      expect(validateMessagesTurns([user([{ type: 'image', ...extra }])])).toEqual([{ field, kind, message }]);
    });

    it('checks tool_use blocks', () => {
      expect(validateMessagesTurns([user('hi'), assistant([{ type: 'tool_use' }])]).map((v) => v.message)).toEqual([
        'messages[1].content[0].id must be a string (the id the tool_result will answer)',
        'messages[1].content[0].name must be a string',
        "messages[1].content[0].input must be an object (the tool's arguments)",
      ]);
    });

    it('checks thinking and redacted_thinking blocks', () => {
      expect(validateMessagesTurns([user('hi'), assistant([{ type: 'thinking', thinking: 'x' }, { type: 'redacted_thinking' }])]).map((v) => v.message)).toEqual([
        'messages[1].content[0].signature must be a string',
        'messages[1].content[1].data must be a string',
      ]);
    });

    it('needs a tool_result to answer a tool_use of an earlier assistant turn', () => {
      expect(validateMessagesTurns([user([{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'x' }])])).toEqual([
        {
          field: 'messages[0].content[0].tool_use_id',
          kind: 'value',
          message: 'messages[0].content[0].tool_use_id "toolu_9" does not match any tool_use block in an earlier assistant turn',
        },
      ]);
      expect(validateMessagesTurns([user([{ type: 'tool_result', content: 'x' }])])).toEqual([
        {
          field: 'messages[0].content[0].tool_use_id',
          kind: 'shape',
          message: 'messages[0].content[0].tool_use_id must be a string: the id of the tool_use block it answers',
        },
      ]);
    });

    it('checks tool_result content and is_error', () => {
      const turns = (result: Record<string, unknown>) => [user('hi'), assistant([toolUse]), user([{ type: 'tool_result', tool_use_id: 'toolu_1', ...result }])];
      expect(validateMessagesTurns(turns({ content: 5 }))).toEqual([
        { field: 'messages[2].content[0].content', kind: 'shape', message: 'messages[2].content[0].content must be a string or an array of text and image blocks' },
      ]);
      expect(validateMessagesTurns(turns({ content: [{ type: 'tool_use' }] }))).toEqual([
        { field: 'messages[2].content[0].content[0].type', kind: 'shape', message: 'messages[2].content[0].content[0].type must be one of "text", "image"' },
      ]);
      expect(validateMessagesTurns(turns({ content: [{ type: 'text' }] }))).toEqual([
        { field: 'messages[2].content[0].content[0].text', kind: 'shape', message: 'messages[2].content[0].content[0].text must be a string' },
      ]);
      expect(validateMessagesTurns(turns({ is_error: 'yes' }))).toEqual([
        { field: 'messages[2].content[0].is_error', kind: 'shape', message: 'messages[2].content[0].is_error must be a boolean' },
      ]);
    });
  });
});
