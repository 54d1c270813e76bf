/**
 * A recorded call read back as its messages (the JSONL export, a reload's backfill): the messages
 * both ways, not the marks nor the recorder's audio events (where each span of audio went in a track).
 */
import { describe, expect, it } from 'vitest';
import type { TimelineItem } from '@shared/contract/history';
import { messageOfItem } from '@/families/realtime/stores/recorded-messages';

describe('messageOfItem()', () => {
  it("gives the call's messages, and neither its marks nor its audio events", () => {
    const items: TimelineItem[] = [
      { at: 0, event: { t: 10, direction: 'out', kind: 'json', data: JSON.stringify({ type: 'response.create' }) } },
      { at: 1, event: { t: 20, direction: 'in', kind: 'json', data: JSON.stringify({ type: 'response.output_audio.delta', item_id: 'item_1', delta: { bytes: 960 } }) } },
      // The same delta's audio, as the recorder keeps it beside the message.
      { at: 2, event: { t: 20, direction: 'in', kind: 'audio', event: 'response.output_audio.delta', data: JSON.stringify({ item_id: 'item_1' }), audio: { track: 'trk_1', offsetMs: 0, durationMs: 20, bytes: 960 } } },
      { at: 3, event: { t: 25, direction: 'out', kind: 'audio', data: '(microphone audio)', audio: { track: 'trk_2', offsetMs: 0, durationMs: 20, bytes: 640 } } },
      { at: 4, mark: { t: 30, kind: 'response_done', eventIndex: 4 } as unknown as Extract<TimelineItem, { mark: unknown }>['mark'] },
      { at: 5, event: { t: 40, direction: 'in', kind: 'text', data: 'not json' } },
    ];
    expect(items.map(messageOfItem).filter((m) => m !== null)).toEqual([
      { t: 10, direction: 'out', message: { type: 'response.create' } },
      { t: 20, direction: 'in', message: { type: 'response.output_audio.delta', item_id: 'item_1', delta: { bytes: 960 } } },
      { t: 40, direction: 'in', message: 'not json' },
    ]);
  });
});
