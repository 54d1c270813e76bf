import { describe, expect, it } from 'vitest';
import { CompactionCodec, compactionMessage, summarize } from '../../../../../main/sandbox/responses/compaction';

const payload = { v: 1 as const, team: 'a', model: 'svc-4', summary: 'user: hi', dropped: 1 };

describe('sandbox/responses/compaction', () => {
  describe('CompactionCodec', () => {
    it('reads back what it wrote for the same team', () => {
      const codec = new CompactionCodec();
      expect(codec.decode(codec.encode(payload), 'a')).toEqual(payload);
    });

    it('refuses another team, another sandbox, and any changed byte', () => {
      const codec = new CompactionCodec();
      const text = codec.encode(payload);
      expect(codec.decode(text, 'b')).toBeNull();
      expect(new CompactionCodec().decode(text, 'a')).toBeNull();
      const [body, mac] = text.split('.');
      const tampered = Buffer.from(JSON.stringify({ ...payload, summary: 'user: something else' })).toString('base64url');
      expect(codec.decode(`${tampered}.${mac}`, 'a')).toBeNull();
      expect(codec.decode(body, 'a')).toBeNull();
      expect(codec.decode('not-a-compaction', 'a')).toBeNull();
    });
  });

  describe('summarize()', () => {
    it('keeps one clipped line per message, tool calls and results included', () => {
      const long = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
      expect(
        summarize([
          { role: 'user', content: long },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'call_1', content: '42' },
        ]),
      ).toBe(`user: ${long.split(' ').slice(0, 12).join(' ')}…\nassistant: called f\ntool result: 42`);
    });

    it('keeps an earlier compaction whole, so compacting twice loses nothing already summarised', () => {
      const earlier = compactionMessage(payload);
      expect(summarize([earlier, { role: 'user', content: 'next' }])).toBe(`Compacted context (1 earlier messages):\nuser: hi\nuser: next`);
    });
  });
});
