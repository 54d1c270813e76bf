/**
 * The latency panel's lanes for its drawn turns, remembered (memoLanes): the same lanes withLanes()
 * gives, worked out again only when what falls in a turn's window changed.
 */
import { describe, expect, it } from 'vitest';
import { EventLog } from '@/families/realtime/lib/event-log';
import { eventsInWindow, memoLanes, withLanes, type LevelSample } from '@/families/realtime/lib/latency-timeline';
import { emptyTurn } from './turn-fixture';

const turn = emptyTurn;

/** A call's log: per turn a typed message out, an answer whose audio and transcript deltas interleave (two folds open at once), done. */
function callLog(turns: number): EventLog {
  const log = new EventLog({ maxRows: 5000 });
  let t = 0;
  for (let n = 0; n < turns; n++) {
    log.push({ t: (t += 7), direction: 'out', message: { type: 'conversation.item.create' } });
    log.push({ t: (t += 3), direction: 'in', message: { type: 'response.created' } });
    for (let d = 0; d < 12; d++) {
      log.push({ t: (t += 5), direction: 'in', message: { type: 'response.output_audio.delta', item_id: `i${n}` } });
      if (d < 6) log.push({ t: (t += 1), direction: 'in', message: { type: 'response.output_audio_transcript.delta', item_id: `i${n}` } });
    }
    log.push({ t: (t += 4), direction: 'in', message: { type: 'response.done' } });
  }
  return log;
}

describe('memoLanes()', () => {
  it('finds the same events in a window as a filter of the whole log, folds reaching in from before included', () => {
    const rows = callLog(40).rows();
    const last = rows[rows.length - 1]!.tLast;
    for (let from = 0; from < last; from += 37) {
      for (const span of [1, 20, 90, 400]) {
        const expected = rows.filter((e) => e.direction === 'in' && e.tLast >= from && e.t <= from + span);
        expect(eventsInWindow(rows, from, from + span)).toEqual(expected);
      }
    }
  });

  it('gives the lanes withLanes() gives; the same object while nothing in the window changed, a new one when it did', () => {
    const log = callLog(3);
    const levels: LevelSample[] = Array.from({ length: 500 }, (_, i) => ({ t: i * 2, dbfs: -60 + (i % 50) }));
    const lanes = memoLanes();
    const end = log.rows()[log.rows().length - 1]!.tLast;
    const turns = [turn(3, end - 60, end + 200), turn(2, 100, 180)];
    const first = lanes(turns, log.rows(), levels);
    expect(first).toEqual(turns.map((t) => withLanes(t, log.rows(), levels)));
    // A row after both windows: both kept as they were.
    log.push({ t: end + 500, direction: 'in', message: { type: 'session.updated' } });
    const second = lanes(turns, log.rows(), levels);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toBe(first[1]);
    // A row inside the newest turn's window: that turn only is new.
    log.push({ t: end + 510, direction: 'in', message: { type: 'response.created' } });
    log.push({ t: end + 520, direction: 'in', message: { type: 'response.output_audio.delta', item_id: 'x' } });
    turns[0] = { ...turns[0]!, to: end + 600 };
    const third = lanes(turns, log.rows(), levels);
    expect(third[0]).not.toBe(first[0]);
    expect(third[0]!.events.map((e) => e.type).slice(-2)).toEqual(['response.created', 'response.output_audio.delta']);
    expect(third[1]).toBe(first[1]);
    // The fold grows in place (same row, a count more): seen.
    log.push({ t: end + 530, direction: 'in', message: { type: 'response.output_audio.delta', item_id: 'x' } });
    const fourth = lanes(turns, log.rows(), levels);
    expect(fourth[0]).not.toBe(third[0]);
    expect(fourth[0]!.events.at(-1)).toMatchObject({ count: 2, tLast: end + 530 });
    // A level sample in the older turn's window: that turn is new.
    levels.splice(70, 0, { t: 140.5, dbfs: -3 });
    const fifth = lanes(turns, log.rows(), levels);
    expect(fifth[1]).not.toBe(first[1]);
    expect(fifth[1]).toEqual(withLanes(turns[1]!, log.rows(), levels));
  });
});
