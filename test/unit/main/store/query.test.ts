import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase, type Db } from '../../../../main/store/db';
import { prepare, SLOW_QUERY_MS, timed } from '../../../../main/store/query';

describe('query', () => {
  const lines: string[] = [];
  let db: Db;
  beforeEach(() => {
    lines.length = 0;
    db = openDatabase(':memory:', { log: (line) => lines.push(line) });
    lines.length = 0;
    // A SQL function that blocks long enough to count as slow, whatever the machine's speed.
    db.function('stall', () => {
      const until = performance.now() + SLOW_QUERY_MS + 20;
      while (performance.now() < until);
      return 1;
    });
  });
  afterEach(() => closeDatabase(db));

  describe('timed()', () => {
    it('logs a slow query with its label and duration', () => {
      const value = timed(db, 'searchRuns', () => db.prepare('SELECT stall() AS v').get());
      expect(value).toEqual({ v: 1 });
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/slow query searchRuns took \d+ ms/);
    });

    it('still logs a slow query that fails, and rethrows', () => {
      expect(() =>
        timed(db, 'broken', () => {
          db.prepare('SELECT stall()').get();
          throw new Error('boom');
        }),
      ).toThrow('boom');
      expect(lines[0]).toMatch(/broken/);
    });
  });

  describe('prepare()', () => {
    it('compiles each statement once per database', () => {
      expect(prepare(db, 'SELECT 1')).toBe(prepare(db, 'SELECT 1'));
      const other = openDatabase(':memory:');
      expect(prepare(other, 'SELECT 1')).not.toBe(prepare(db, 'SELECT 1'));
      closeDatabase(other);
    });
  });
});
