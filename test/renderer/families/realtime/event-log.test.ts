/**
 * The console's event log as a user reads it: an answer's deltas fold into one row each (×N),
 * a new item starts a new row, anything else closes the folds; memory holds only the newest rows
 * (the count of those gone is kept); a held audio chunk is summarised; filters and JSONL export.
 */
import { describe, expect, it } from 'vitest';
import { EventLog, boundMessage, filterRows, rowJson, rowLabel, toJsonl, type LogMessage } from '@/families/realtime/lib/event-log';

const inMsg = (t: number, message: unknown): LogMessage => ({ t, direction: 'in', message });
const outMsg = (t: number, message: unknown): LogMessage => ({ t, direction: 'out', message });

/** One spoken answer as the sandbox sends it: audio and transcript deltas interleaved. */
function answer(item: string, t0: number, deltas: number): LogMessage[] {
  const out: LogMessage[] = [inMsg(t0, { type: 'response.created', response: { id: `resp_${item}` } })];
  for (let i = 0; i < deltas; i++) {
    out.push(inMsg(t0 + 1 + i * 2, { type: 'response.output_audio.delta', item_id: item, delta: 'A'.repeat(1_280) }));
    out.push(inMsg(t0 + 2 + i * 2, { type: 'response.output_audio_transcript.delta', item_id: item, delta: `w${i} ` }));
  }
  out.push(inMsg(t0 + 1000, { type: 'response.done', response: { id: `resp_${item}`, status: 'completed' } }));
  return out;
}

describe('EventLog', () => {
  describe('push()', () => {
    it("folds an answer's interleaved deltas into one row per type, ×N, closed by the next message that does not fold", () => {
      const log = new EventLog({ maxRows: 100 });
      for (const m of answer('item_1', 0, 30)) log.push(m);
      expect(log.rows().map(rowLabel)).toEqual(['response.created', 'response.output_audio.delta ×30', 'response.output_audio_transcript.delta ×30', 'response.done']);
      const audio = log.rows()[1]!;
      expect({ t: audio.t, tLast: audio.tLast, count: audio.count }).toEqual({ t: 1, tLast: 59, count: 30 });
      expect(log.messages).toBe(62);
    });

    it('starts a new row for a new item, and for the same deltas after a message that does not fold', () => {
      const log = new EventLog({ maxRows: 100 });
      log.push(inMsg(0, { type: 'response.output_audio_transcript.delta', item_id: 'a', delta: 'x' }));
      log.push(inMsg(1, { type: 'response.output_audio_transcript.delta', item_id: 'b', delta: 'y' }));
      log.push(inMsg(2, { type: 'response.output_audio_transcript.delta', item_id: 'b', delta: 'z' }));
      log.push(inMsg(3, { type: 'input_audio_buffer.speech_started', audio_start_ms: 10 }));
      log.push(inMsg(4, { type: 'response.output_audio_transcript.delta', item_id: 'b', delta: 'w' }));
      expect(log.rows().map((r) => [r.type, r.count])).toEqual([
        ['response.output_audio_transcript.delta', 1],
        ['response.output_audio_transcript.delta', 2],
        ['input_audio_buffer.speech_started', 1],
        ['response.output_audio_transcript.delta', 1],
      ]);
    });

    it("folds the microphone's appends (sent) apart from what comes in, and never folds a message that is not a delta", () => {
      const log = new EventLog({ maxRows: 100 });
      for (let i = 0; i < 5; i++) {
        log.push(outMsg(i * 20, { type: 'input_audio_buffer.append', audio: 'AAAA' }));
        log.push(inMsg(i * 20 + 1, { type: 'response.output_audio.delta', item_id: 'x', delta: 'BBBB' }));
      }
      log.push(inMsg(200, { type: 'ping' }));
      log.push(inMsg(201, { type: 'ping' }));
      expect(log.rows().map((r) => [r.direction, rowLabel(r)])).toEqual([
        ['out', 'input_audio_buffer.append ×5'],
        ['in', 'response.output_audio.delta ×5'],
        ['in', 'ping'],
        ['in', 'ping'],
      ]);
    });

    it('holds only the newest rows, counting the rows and messages gone; row ids keep counting', () => {
      const log = new EventLog({ maxRows: 10 });
      for (let turn = 0; turn < 25; turn++) for (const m of answer(`item_${turn}`, turn * 2000, 3)) log.push(m);
      // 4 rows per answer, 100 rows made, 10 held.
      expect(log.size).toBe(10);
      expect(log.droppedRows).toBe(90);
      // Each dropped answer held 1 + 3 + 3 + 1 messages in 4 rows; rows 0..89 are whole answers but the last 2 of answer 22.
      expect(log.droppedMessages).toBe(22 * 8 + 1 + 3);
      expect(log.rows().map((r) => r.id)).toEqual([90, 91, 92, 93, 94, 95, 96, 97, 98, 99]);
      expect(log.at(0)?.id).toBe(90);
      expect(log.at(10)).toBeUndefined();
      expect(log.typeCounts.get('response.output_audio.delta')).toBe(75);
    });

    it('keeps folding into the newest row after older rows were dropped (compaction keeps the open fold)', () => {
      const log = new EventLog({ maxRows: 3 });
      log.push(inMsg(0, { type: 'a' }));
      log.push(inMsg(1, { type: 'b' }));
      log.push(inMsg(2, { type: 'c' }));
      for (let i = 0; i < 10; i++) log.push(inMsg(3 + i, { type: 'response.text.delta', item_id: 'i', delta: 'x' }));
      log.push(inMsg(20, { type: 'd' }));
      log.push(inMsg(21, { type: 'e' }));
      expect(log.rows().map(rowLabel)).toEqual(['response.text.delta ×10', 'd', 'e']);
      expect(log.droppedRows).toBe(3);
    });

    it("keeps a held message's long strings as a head and a length (an audio chunk is not held)", () => {
      const log = new EventLog({ maxRows: 10, maxString: 100 });
      const row = log.push(inMsg(0, { type: 'response.output_audio.delta', item_id: 'x', delta: 'Q'.repeat(5_000) }));
      expect(row.first).toEqual({ type: 'response.output_audio.delta', item_id: 'x', delta: `${'Q'.repeat(32)}… (5,000 chars)` });
      expect(boundMessage({ a: ['short', 'L'.repeat(10)] }, 5)).toEqual({ a: ['short', 'LLLLL… (10 chars)'] });
    });
  });

  describe('a fold\'s last message', () => {
    it('is not copied for each delta while the fold is open: bounded once when it closes, and when shown', () => {
      const log = new EventLog({ maxRows: 10, maxString: 100 });
      const deltas = [0, 1, 2].map((i) => ({ type: 'response.output_audio.delta', item_id: 'x', delta: `${i}`.repeat(5_000) }));
      const row = log.push(inMsg(0, deltas[0]));
      log.push(inMsg(1, deltas[1]));
      log.push(inMsg(2, deltas[2]));
      // Open: the message as it came (no bounded copy made per delta)...
      expect(row.last).toBe(deltas[2]);
      // ...yet shown bounded (an audio chunk is never shown whole).
      expect((JSON.parse(rowJson(row)) as { last: { delta: string } }).last.delta).toBe(`${'2'.repeat(32)}… (5,000 chars)`);
      // Closed by a message that does not fold: bounded, the chunk let go.
      log.push(inMsg(3, { type: 'response.done' }));
      expect(row.last).not.toBe(deltas[2]);
      expect(row.last).toEqual({ type: 'response.output_audio.delta', item_id: 'x', delta: `${'2'.repeat(32)}… (5,000 chars)` });
      expect(row.count).toBe(3);
    });
  });

  describe('filterRows()', () => {
    const log = new EventLog({ maxRows: 100 });
    log.push(outMsg(0, { type: 'session.update', session: {} }));
    for (const m of answer('i', 10, 2)) log.push(m);
    const rows = log.rows();

    it('lets through the chosen types, one direction, or types containing a word', () => {
      expect(filterRows(rows, { types: new Set(['response.done', 'session.update']) }).map((r) => r.type)).toEqual(['session.update', 'response.done']);
      expect(filterRows(rows, { direction: 'out' }).map((r) => r.type)).toEqual(['session.update']);
      expect(filterRows(rows, { text: 'TRANSCRIPT' }).map(rowLabel)).toEqual(['response.output_audio_transcript.delta ×2']);
      expect(filterRows(rows, { types: new Set() })).toHaveLength(rows.length);
    });
  });

  describe('rows()', () => {
    it('answers one array, changed in place: a full log adding a row per message copies none of the held rows', () => {
      const log = new EventLog({ maxRows: 3 });
      log.push(inMsg(0, { type: 'response.created' }));
      const first = log.rows();
      log.push(inMsg(1, { type: 'response.text.delta', item_id: 'i', delta: 'a' }));
      log.push(inMsg(2, { type: 'response.text.delta', item_id: 'i', delta: 'b' }));
      expect(log.rows()).toBe(first);
      expect(rowLabel(first[1]!)).toBe('response.text.delta ×2');
      log.push(inMsg(3, { type: 'response.done' }));
      // Full now: each message adds a row and drops the oldest, in the same array.
      for (let i = 0; i < 50; i++) log.push(inMsg(4 + i, { type: `event.${i}` }));
      expect(log.rows()).toBe(first);
      expect(first.map((r) => r.type)).toEqual(['event.47', 'event.48', 'event.49']);
      expect(first.map((r) => r.id)).toEqual([50, 51, 52]);
      expect(log.size).toBe(3);
      expect(log.at(0)?.type).toBe('event.47');
      expect(log.droppedRows).toBe(50);
      expect(log.droppedMessages).toBe(51);
    });
  });

  describe('rowJson() and toJsonl()', () => {
    it("shows a fold's first and last message with the count, and a single message as itself", () => {
      const log = new EventLog({ maxRows: 10 });
      log.push(inMsg(5, { type: 'response.text.delta', item_id: 'i', delta: 'Hel' }));
      log.push(inMsg(9, { type: 'response.text.delta', item_id: 'i', delta: 'lo' }));
      log.push(inMsg(12, { type: 'response.done' }));
      const [fold, done] = log.rows();
      expect(JSON.parse(rowJson(fold!))).toEqual({ folded: 2, from_ms: 5, to_ms: 9, first: { type: 'response.text.delta', item_id: 'i', delta: 'Hel' }, last: { type: 'response.text.delta', item_id: 'i', delta: 'lo' } });
      expect(JSON.parse(rowJson(done!))).toEqual({ type: 'response.done' });
    });

    it('writes one JSON object per line, in order', () => {
      const jsonl = toJsonl([outMsg(1, { type: 'session.update' }), inMsg(2, 'not json')]);
      expect(jsonl.split('\n')).toEqual(['{"t":1,"direction":"out","message":{"type":"session.update"}}', '{"t":2,"direction":"in","message":"not json"}', '']);
    });
  });
});
