import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { applyMigrations, LATEST_VERSION, migrateTo, MIGRATIONS, schemaVersion } from '../../../../../main/store/migrations/index';
import type { Migration } from '../../../../../main/store/migrations/migration';

describe('migrations/index', () => {
  describe('MIGRATIONS', () => {
    it('numbers migrations 1, 2, 3, ... with no gaps, ending at LATEST_VERSION', () => {
      expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
      expect(LATEST_VERSION).toBe(MIGRATIONS.length);
    });
  });

  describe('migrateTo()', () => {
    it('applies migrations up to the target only, then the rest later', () => {
      const db = new Database(':memory:');
      expect(migrateTo(db, 1)).toEqual([1]);
      expect(schemaVersion(db)).toBe(1);
      expect(migrateTo(db)).toEqual(MIGRATIONS.slice(1).map((m) => m.version));
      expect(migrateTo(db)).toEqual([]);
      db.close();
    });
  });

  describe('applyMigrations()', () => {
    it('rolls a failing migration back completely and stops at the last good version', () => {
      const db = new Database(':memory:');
      const migrations: Migration[] = [
        { version: 1, name: 'good', up: (d) => d.exec('CREATE TABLE good (x)') },
        {
          version: 2,
          name: 'bad',
          up: (d) => {
            d.exec('CREATE TABLE half_done (x)');
            throw new Error('disk on fire');
          },
        },
        { version: 3, name: 'never', up: (d) => d.exec('CREATE TABLE never (x)') },
      ];
      expect(() => applyMigrations(db, migrations, 3)).toThrow('disk on fire');
      expect(schemaVersion(db)).toBe(1);
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
      expect(tables).toEqual([{ name: 'good' }]);
      db.close();
    });
  });
});
