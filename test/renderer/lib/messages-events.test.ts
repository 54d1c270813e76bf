import { describe, expect, it } from 'vitest';
import { buildMessagesTimeline, describeDeltas } from '@/lib/messages-events';

const ev = (t: number, data: unknown) => ({ t, data: typeof data === 'string' ? data : JSON.stringify(data) });

describe('messages-events', () => {
  describe('buildMessagesTimeline()', () => {
    it('groups deltas per block index with counts, characters and first/last arrival', () => {
      const timeline = buildMessagesTimeline([
        ev(10, { type: 'message_start', message: { model: 'svc-3-mini', usage: { input_tokens: 40 } } }),
        ev(11, { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
        ev(20, { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Hmm' } }),
        ev(30, { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig' } }),
        ev(31, { type: 'content_block_stop', index: 0 }),
        ev(32, { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} } }),
        ev(40, { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"city":' } }),
        ev(45, { type: 'ping' }),
        ev(50, { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } }),
        ev(51, { type: 'content_block_stop', index: 1 }),
        ev(52, { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 57 } }),
        ev(53, { type: 'message_stop' }),
        ev(54, '[DONE]'),
      ]);
      expect(timeline).toEqual({
        start: { t: 10, model: 'svc-3-mini', inputTokens: 40 },
        blocks: [
          { index: 0, type: 'thinking', startT: 11, stopT: 31, deltas: { thinking_delta: 1, signature_delta: 1 }, deltaCount: 2, firstDeltaT: 20, lastDeltaT: 30, chars: 6 },
          { index: 1, type: 'tool_use', name: 'get_weather', startT: 32, stopT: 51, deltas: { input_json_delta: 2 }, deltaCount: 2, firstDeltaT: 40, lastDeltaT: 50, chars: 16 },
        ],
        delta: { t: 52, stopReason: 'tool_use', stopSequence: null, outputTokens: 57 },
        stopT: 53,
        doneT: 54,
        pings: 1,
        errors: [],
        other: 0,
      });
      expect(describeDeltas(timeline.blocks[0]!)).toBe('1 thinking_delta, 1 signature_delta');
    });

    it('keeps what a cut stream had: no message_stop, an error event, and unparseable lines counted', () => {
      const timeline = buildMessagesTimeline([
        ev(5, { type: 'message_start', message: { model: 'svc-4', usage: {} } }),
        ev(6, { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'orphan' } }),
        ev(7, 'not json'),
        ev(8, { type: 'error', error: { type: 'overloaded_error', message: 'try later' } }),
      ]);
      expect(timeline.stopT).toBeNull();
      expect(timeline.start).toEqual({ t: 5, model: 'svc-4', inputTokens: null });
      expect(timeline.blocks).toEqual([
        { index: 2, type: '?', startT: null, stopT: null, deltas: { text_delta: 1 }, deltaCount: 1, firstDeltaT: 6, lastDeltaT: 6, chars: 6 },
      ]);
      expect(timeline.errors).toEqual([{ t: 8, message: 'overloaded_error: try later' }]);
      expect(timeline.other).toBe(1);
    });
  });
});
