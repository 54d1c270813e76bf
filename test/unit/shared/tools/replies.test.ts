import { describe, expect, it } from 'vitest';
import { orderReplies, validateReplies } from '../../../../shared/tools/replies';

const calls = [
  { id: 'call_1', name: 'get_weather', arguments: '{}' },
  { id: 'call_2', name: 'get_time', arguments: '{}' },
];

describe('tools/replies', () => {
  describe('validateReplies()', () => {
    it('accepts JSON replies to every call', () => {
      expect(validateReplies(calls, [{ callId: 'call_2', output: '"12:00"' }, { callId: 'call_1', output: '{"temp": 21}' }])).toEqual([]);
    });

    it('asks for a missing or blank reply', () => {
      expect(validateReplies(calls, [{ callId: 'call_1', output: ' ' }, { callId: 'call_2', output: '1' }])).toEqual([
        { callId: 'call_1', message: 'Write a reply to get_weather (call_1).' },
      ]);
    });

    it('says where a reply stops being JSON', () => {
      expect(validateReplies(calls, [{ callId: 'call_1', output: '{"t": sunny}' }, { callId: 'call_2', output: '1' }])).toEqual([
        { callId: 'call_1', message: 'The reply to get_weather is not valid JSON: Unexpected "s", expected a value at line 1, column 7 (position 6)' },
      ]);
    });

    it('lets plain text through when asked to', () => {
      expect(validateReplies(calls, [{ callId: 'call_1', output: 'sunny' }, { callId: 'call_2', output: 'noon' }], { allowText: true })).toEqual([]);
    });
  });

  describe('orderReplies()', () => {
    it('puts replies in call order, empty for unanswered calls', () => {
      expect(orderReplies(calls, [{ callId: 'call_2', output: 'b' }])).toEqual([
        { callId: 'call_1', output: '' },
        { callId: 'call_2', output: 'b' },
      ]);
    });
  });
});
