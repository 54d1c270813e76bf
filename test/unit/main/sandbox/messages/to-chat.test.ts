import { describe, expect, it } from 'vitest';
import type { MessagesRequest } from '../../../../../shared/wire/messages';
import { systemText, toChatMessages, toChatRequest } from '../../../../../main/sandbox/messages/to-chat';

const base: MessagesRequest = { model: 'svc-4', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] };

describe('sandbox/messages/to-chat', () => {
  describe('systemText()', () => {
    it('joins text blocks and passes a string through', () => {
      expect(systemText('Be brief')).toBe('Be brief');
      expect(systemText([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }])).toBe('a\nb');
      expect(systemText(undefined)).toBe('');
    });
  });

  describe('toChatMessages()', () => {
    it('maps system, images, tool_use and tool_result to their chat forms in order', () => {
      const out = toChatMessages({
        ...base,
        system: 'Be brief',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Weather here?' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
            ],
          },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'Need a tool', signature: 's' },
              { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } },
            ],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '5C' }], is_error: false }, { type: 'text', text: 'Thanks' }] },
        ],
      });
      expect(out).toEqual([
        { role: 'system', content: 'Be brief' },
        { role: 'user', content: [{ type: 'text', text: 'Weather here?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
        {
          role: 'assistant',
          content: null,
          reasoning_content: 'Need a tool',
          tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: '5C' },
        { role: 'user', content: 'Thanks' },
      ]);
    });

    it('marks an error tool_result so the reply can say the tool failed', () => {
      const out = toChatMessages({
        ...base,
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'boom', is_error: true }] },
        ],
      });
      expect(out.at(-1)).toEqual({ role: 'tool', tool_call_id: 't', content: '(the tool reported an error) boom' });
    });
  });

  describe('toChatRequest()', () => {
    const tools = [{ name: 'f', input_schema: { type: 'object' as const, properties: {} } }];
    it.each([
      [{ type: 'auto' as const }, 'auto'],
      [{ type: 'any' as const }, 'required'],
      [{ type: 'tool' as const, name: 'f' }, { type: 'function', function: { name: 'f' } }],
    ])('maps tool_choice %j to %j', (choice, expected) => {
      expect(toChatRequest({ ...base, tools, tool_choice: choice }, 'svc-4').tool_choice).toEqual(expected);
    });

    it('maps tools to functions, disable_parallel_tool_use to parallel_tool_calls false, and leaves out stop and limits', () => {
      const chat = toChatRequest({ ...base, tools, tool_choice: { type: 'any', disable_parallel_tool_use: true }, stop_sequences: ['x'], temperature: 0.5 }, 'svc-4');
      expect(chat).toEqual({
        model: 'svc-4',
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }],
        tool_choice: 'required',
        parallel_tool_calls: false,
        temperature: 0.5,
      });
    });
  });
});
