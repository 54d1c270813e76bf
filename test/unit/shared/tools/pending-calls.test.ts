import { describe, expect, it } from 'vitest';
import { pendingFromChat, pendingFromMessages, pendingFromResponses } from '../../../../shared/tools/pending-calls';

describe('tools/pending-calls', () => {
  describe('pendingFromChat()', () => {
    it('reads function calls and skips server-side tool calls', () => {
      expect(
        pendingFromChat({
          tool_calls: [
            { id: 'call_1', type: 'function', index: 0, function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'ws_1', type: 'web_search_call', function: { name: 'web_search', arguments: '{}' } },
          ],
        }),
      ).toEqual([{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }]);
      expect(pendingFromChat({ tool_calls: null })).toEqual([]);
    });
  });

  describe('pendingFromResponses()', () => {
    it('answers function_call items by call_id, not item id', () => {
      expect(
        pendingFromResponses([
          { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [] },
          { type: 'function_call', id: 'fc_1', call_id: 'call_9', name: 'get_weather', arguments: '{}', status: 'completed' },
        ]),
      ).toEqual([{ id: 'call_9', name: 'get_weather', arguments: '{}' }]);
    });
  });

  describe('pendingFromMessages()', () => {
    it('reads tool_use blocks with their input as JSON text', () => {
      expect(
        pendingFromMessages([
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } },
        ]),
      ).toEqual([{ id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }]);
    });
  });
});
