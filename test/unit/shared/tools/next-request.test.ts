import { describe, expect, it } from 'vitest';
import { chatAssistantTurn, nextChatRequest, nextMessagesRequest, nextResponsesRequest } from '../../../../shared/tools/next-request';
import type { ChatRequest } from '../../../../shared/wire/chat';
import type { MessagesRequest } from '../../../../shared/wire/messages';
import type { ResponseCreateRequest, ResponseFunctionCall } from '../../../../shared/wire/responses';

const replies = [
  { callId: 'call_1', output: '{"temp":21}' },
  { callId: 'call_2', output: '{"time":"12:00"}' },
];

describe('tools/next-request', () => {
  describe('nextChatRequest()', () => {
    it('appends the assistant calls (without stream index) and one tool message per reply, keeping the rest', () => {
      const prev: ChatRequest = {
        model: 'm',
        messages: [{ role: 'user', content: 'weather and time?' }],
        tools: [{ type: 'function', function: { name: 'get_weather' } }],
        temperature: 0.2,
      };
      const assistant = chatAssistantTurn('', [
        { id: 'call_1', type: 'function', index: 0, function: { name: 'get_weather', arguments: '{}' } },
        { id: 'call_2', type: 'function', index: 1, function: { name: 'get_time', arguments: '{}' } },
      ]);
      expect(nextChatRequest(prev, assistant, replies)).toEqual({
        ...prev,
        messages: [
          { role: 'user', content: 'weather and time?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
              { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{}' } },
            ],
          },
          { role: 'tool', content: '{"temp":21}', tool_call_id: 'call_1' },
          { role: 'tool', content: '{"time":"12:00"}', tool_call_id: 'call_2' },
        ],
      });
      expect(prev.messages).toHaveLength(1);
    });
  });

  describe('nextResponsesRequest()', () => {
    const call: ResponseFunctionCall = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{}', status: 'completed' };
    const prev: ResponseCreateRequest = { model: 'm', input: 'weather?', tools: [{ type: 'function', name: 'get_weather' }] };

    it('chains a stored response by previous_response_id with only the outputs', () => {
      expect(nextResponsesRequest(prev, 'resp_1', [replies[0]!], { stored: true })).toEqual({
        ...prev,
        previous_response_id: 'resp_1',
        input: [{ type: 'function_call_output', call_id: 'call_1', output: '{"temp":21}' }],
      });
    });

    it('drops instructions when chaining (the service refuses them with previous_response_id)', () => {
      const next = nextResponsesRequest({ ...prev, instructions: 'Be brief' }, 'resp_1', [replies[0]!], { stored: true });
      expect(next).not.toHaveProperty('instructions');
      expect(next.previous_response_id).toBe('resp_1');
    });

    it('resends the whole input, the output items and the outputs when not stored', () => {
      expect(nextResponsesRequest({ ...prev, store: false }, 'resp_1', [replies[0]!], { stored: false, output: [call] })).toEqual({
        ...prev,
        store: false,
        input: [
          { type: 'message', role: 'user', content: 'weather?' },
          call,
          { type: 'function_call_output', call_id: 'call_1', output: '{"temp":21}' },
        ],
      });
    });
  });

  describe('nextMessagesRequest()', () => {
    it('appends the assistant blocks as they came and a user turn of tool_result blocks', () => {
      const prev: MessagesRequest = { model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'weather?' }] };
      const content = [
        { type: 'text' as const, text: 'Checking.' },
        { type: 'tool_use' as const, id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } },
      ];
      expect(nextMessagesRequest(prev, content, [{ callId: 'toolu_1', output: 'sunny', isError: false }, { callId: 'toolu_2', output: 'boom', isError: true }])).toEqual({
        ...prev,
        messages: [
          { role: 'user', content: 'weather?' },
          { role: 'assistant', content },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' },
              { type: 'tool_result', tool_use_id: 'toolu_2', content: 'boom', is_error: true },
            ],
          },
        ],
      });
    });
  });
});
