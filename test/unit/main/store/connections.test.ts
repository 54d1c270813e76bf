import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deleteConnection, getConnection, listConnections, upsertConnection } from '../../../../main/store/connections';
import { closeDatabase, openDatabase, type Db } from '../../../../main/store/db';

describe('connections', () => {
  let db: Db;
  beforeEach(() => {
    db = openDatabase(':memory:');
  });
  afterEach(() => closeDatabase(db));

  describe('upsertConnection()', () => {
    it('creates a profile and returns it as stored', () => {
      const saved = upsertConnection(db, { id: 'work', name: 'Work', baseUrl: 'https://api.example.com' }, 1_000);
      expect(saved).toEqual({ id: 'work', name: 'Work', baseUrl: 'https://api.example.com', createdAt: 1_000, updatedAt: 1_000 });
      expect(getConnection(db, 'work')).toEqual(saved);
    });

    it('updates name and URL of an existing profile, keeping when it was created', () => {
      upsertConnection(db, { id: 'work', name: 'Work', baseUrl: 'https://a.example.com' }, 1_000);
      const saved = upsertConnection(db, { id: 'work', name: 'Office', baseUrl: 'https://b.example.com' }, 2_000);
      expect(saved).toEqual({ id: 'work', name: 'Office', baseUrl: 'https://b.example.com', createdAt: 1_000, updatedAt: 2_000 });
      expect(listConnections(db)).toHaveLength(1);
    });
  });

  describe('listConnections()', () => {
    it('lists profiles in the order they were added', () => {
      upsertConnection(db, { id: 'zeta', name: 'Zeta', baseUrl: 'https://z.example.com' }, 1_000);
      upsertConnection(db, { id: 'alpha', name: 'Alpha', baseUrl: 'https://a.example.com' }, 2_000);
      upsertConnection(db, { id: 'zeta', name: 'Zeta 2', baseUrl: 'https://z.example.com' }, 3_000);
      expect(listConnections(db).map((c) => c.id)).toEqual(['zeta', 'alpha']);
    });
  });

  describe('deleteConnection()', () => {
    it('removes the profile and reports whether it existed', () => {
      upsertConnection(db, { id: 'work', name: 'Work', baseUrl: 'https://api.example.com' }, 1_000);
      expect(deleteConnection(db, 'work')).toBe(true);
      expect(deleteConnection(db, 'work')).toBe(false);
      expect(getConnection(db, 'work')).toBeNull();
      expect(listConnections(db)).toEqual([]);
    });
  });
});
