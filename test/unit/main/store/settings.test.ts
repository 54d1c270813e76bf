import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase, type Db } from '../../../../main/store/db';
import { deleteSetting, getSetting, setSetting } from '../../../../main/store/settings';

describe('settings', () => {
  let db: Db;
  beforeEach(() => {
    db = openDatabase(':memory:');
  });
  afterEach(() => closeDatabase(db));

  describe('getSetting()', () => {
    it('returns undefined for a key never set', () => {
      expect(getSetting(db, 'connections.active')).toBeUndefined();
    });
  });

  describe('setSetting()', () => {
    it('round-trips JSON values of every kind', () => {
      const values: Record<string, unknown> = {
        string: 'work',
        number: 0.7,
        zero: 0,
        boolean: false,
        null: null,
        array: [1, 'two', { three: 3 }],
        object: { theme: 'dark', sizes: { left: 280 } },
      };
      for (const [key, value] of Object.entries(values)) setSetting(db, key, value);
      for (const [key, value] of Object.entries(values)) expect(getSetting(db, key)).toEqual(value);
    });

    it('replaces an earlier value', () => {
      setSetting(db, 'connections.active', 'sandbox');
      setSetting(db, 'connections.active', 'work');
      expect(getSetting<string>(db, 'connections.active')).toBe('work');
    });

    it('removes the key when given undefined', () => {
      setSetting(db, 'k', 1);
      setSetting(db, 'k', undefined);
      expect(getSetting(db, 'k')).toBeUndefined();
    });
  });

  describe('deleteSetting()', () => {
    it('reports whether the key was set', () => {
      setSetting(db, 'k', 'v');
      expect(deleteSetting(db, 'k')).toBe(true);
      expect(deleteSetting(db, 'k')).toBe(false);
    });
  });
});
