// The fold's lookups (shared/realtime-call/snapshot.ts): transcript entries by item id through an
// index kept beside the array, turns from the newest. What a user sees must not change: each delta
// lands in its own entry, a long call keeps its newest 2,000, a copied or edited snapshot still folds.
import { describe, expect, it } from 'vitest';
import {
  REALTIME_SNAPSHOT_ENTRIES_MAX,
  RealtimeCallInputSchema,
  applyRealtimeCallEvent,
  findTranscriptEntry,
  initialRealtimeCallSnapshot,
  type RealtimeCallSnapshot,
  type RealtimeTranscriptEntry,
} from '../../../../shared/realtime-call';

const input = RealtimeCallInputSchema.parse({});
const fresh = (): RealtimeCallSnapshot => initialRealtimeCallSnapshot(input, 'run_1');
const delta = (s: RealtimeCallSnapshot, itemId: string, text: string) =>
  applyRealtimeCallEvent(s, { type: 'transcript', itemId, role: 'assistant', text, mode: 'delta', final: false, source: 'text' });

describe('the fold finds entries by item id', () => {
  it('a long call: every delta in its own entry, the newest 2,000 kept, a dropped item not found', () => {
    const s = fresh();
    const n = REALTIME_SNAPSHOT_ENTRIES_MAX + 150;
    // Interleaved like a busy call: two items open at once.
    for (let i = 0; i < n; i += 2) {
      for (const w of ['a', 'b', 'c']) {
        delta(s, `item_${i}`, w);
        delta(s, `item_${i + 1}`, w.toUpperCase());
      }
    }
    expect(s.transcript).toHaveLength(REALTIME_SNAPSHOT_ENTRIES_MAX);
    expect(s.droppedTranscript).toBe(150);
    expect(s.transcript[0]!.itemId).toBe('item_150');
    expect(s.transcript.every((e, k) => e.itemId === `item_${k + 150}` && e.text === (k % 2 === 0 ? 'abc' : 'ABC'))).toBe(true);
    expect(findTranscriptEntry(s, 'item_149')).toBeUndefined();
    expect(findTranscriptEntry(s, 'item_150')).toBe(s.transcript[0]);
    // A status for an item no longer held changes nothing; one for a held item marks it.
    applyRealtimeCallEvent(s, { type: 'transcript-status', itemId: 'item_3', status: 'cancelled' });
    applyRealtimeCallEvent(s, { type: 'transcript-status', itemId: 'item_151', status: 'truncated', truncatedAtMs: 800 });
    expect(s.transcript.filter((e) => e.status !== 'in_progress').map((e) => [e.itemId, e.status, e.truncatedAtMs])).toEqual([['item_151', 'truncated', 800]]);
  });

  it('a delta reads a few array elements, not the transcript (2,000 entries held)', () => {
    const s = fresh();
    for (let i = 0; i < REALTIME_SNAPSHOT_ENTRIES_MAX; i++) delta(s, `item_${i}`, 'x');
    let reads = 0;
    s.transcript = new Proxy(s.transcript, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    delta(s, 'item_0', 'y'); // indexes the new array once
    reads = 0;
    for (let k = 0; k < 100; k++) delta(s, 'item_7', 'z');
    expect(s.transcript[7]!.text).toBe(`x${'z'.repeat(100)}`);
    expect(reads).toBeLessThanOrEqual(100 * 3 + 1);
  });

  it('a copied snapshot (structuredClone, as the page attaches) folds onto its own entries', () => {
    const s = fresh();
    delta(s, 'item_1', 'Hel');
    const copy = structuredClone(s);
    delta(copy, 'item_1', 'lo');
    delta(copy, 'item_2', 'Hi');
    expect(copy.transcript.map((e) => [e.itemId, e.text])).toEqual([
      ['item_1', 'Hello'],
      ['item_2', 'Hi'],
    ]);
    expect(s.transcript.map((e) => e.text)).toEqual(['Hel']);
    delta(s, 'item_1', 'p');
    expect(s.transcript.map((e) => e.text)).toEqual(['Help']);
  });

  it('an array edited from outside is indexed again: no duplicate entry, no stale one', () => {
    const s = fresh();
    for (const id of ['item_1', 'item_2', 'item_3']) delta(s, id, id);
    // A new array (a filter), then the same array shortened in place.
    s.transcript = s.transcript.filter((e) => e.itemId !== 'item_2');
    delta(s, 'item_2', '!');
    delta(s, 'item_3', '!');
    expect(s.transcript.map((e) => `${e.itemId}=${e.text}`)).toEqual(['item_1=item_1', 'item_3=item_3!', 'item_2=!']);
    s.transcript.pop();
    delta(s, 'item_2', '?');
    expect(s.transcript.map((e: RealtimeTranscriptEntry) => `${e.itemId}=${e.text}`)).toEqual(['item_1=item_1', 'item_3=item_3!', 'item_2=?']);
  });

  it('turns arriving out of order are kept in order and found again', () => {
    const s = fresh();
    for (const n of [1, 2, 5, 3, 4]) applyRealtimeCallEvent(s, { type: 'turn', turn: n, userItemId: `u${n}` });
    for (const n of [3, 1, 5]) applyRealtimeCallEvent(s, { type: 'mark', turn: n, mark: 'speech_stopped', t: n * 100 });
    expect(s.turns.map((t) => [t.turn, t.userItemId, t.marks.speech_stopped])).toEqual([
      [1, 'u1', 100],
      [2, 'u2', null],
      [3, 'u3', 300],
      [4, 'u4', null],
      [5, 'u5', 500],
    ]);
  });
});
