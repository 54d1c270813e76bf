import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase, type Db } from '../../../../main/store/db';
import { appendRunEvents, readRunEvents } from '../../../../main/store/run-events';
import { deleteRun, getRun, insertRun } from '../../../../main/store/runs';
import { newRun } from './run-fixtures';

const ev = (i: number) => ({ t: i, data: `{"choices":[{"delta":{"content":"w${i}"}}]}` });
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => ev(from + i));

describe('run-events', () => {
  let db: Db;
  beforeEach(() => {
    db = openDatabase(':memory:');
    insertRun(db, newRun('r1', 1_000, 'hi'));
  });
  afterEach(() => closeDatabase(db));

  describe('appendRunEvents()', () => {
    it('appends chunks in order and keeps the run count in step', () => {
      expect(appendRunEvents(db, 'r1', range(0, 3))).toBe(true);
      expect(appendRunEvents(db, 'r1', [])).toBe(true);
      expect(appendRunEvents(db, 'r1', range(3, 10))).toBe(true);
      expect(getRun(db, 'r1')?.eventCount).toBe(10);
      expect(readRunEvents(db, 'r1')).toEqual({ events: range(0, 10), offset: 0, total: 10 });
    });

    it('writes nothing for a run that was deleted while it streamed', () => {
      deleteRun(db, 'r1');
      expect(appendRunEvents(db, 'r1', range(0, 3))).toBe(false);
      expect(db.prepare('SELECT COUNT(*) FROM run_event_chunks').pluck().get()).toBe(0);
    });

    it('stores the log compressed', () => {
      appendRunEvents(db, 'r1', range(0, 64));
      const stored = db.prepare<[], number>('SELECT SUM(length(data)) FROM run_event_chunks').pluck().get()!;
      expect(stored).toBeLessThan(JSON.stringify(range(0, 64)).length / 4);
    });
  });

  describe('readRunEvents()', () => {
    it('returns a page that spans chunk boundaries', () => {
      appendRunEvents(db, 'r1', range(0, 4));
      appendRunEvents(db, 'r1', range(4, 8));
      appendRunEvents(db, 'r1', range(8, 12));
      expect(readRunEvents(db, 'r1', 3, 6)).toEqual({ events: range(3, 9), offset: 3, total: 12 });
      expect(readRunEvents(db, 'r1', 11, 100)?.events).toEqual(range(11, 12));
      expect(readRunEvents(db, 'r1', 12, 5)?.events).toEqual([]);
    });

    it('is null for an unknown run', () => {
      expect(readRunEvents(db, 'nope')).toBeNull();
    });
  });
});
