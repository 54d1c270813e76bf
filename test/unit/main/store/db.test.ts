import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkbenchFailure } from '../../../../shared/contract/errors';
import { closeDatabase, openDatabase, SCHEMA_VERSION } from '../../../../main/store/db';
import { getRun, insertRun } from '../../../../main/store/runs';
import { newRun } from './run-fixtures';

describe('db', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'store-db-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe('openDatabase()', () => {
    it('creates missing folders and applies the pragmas every connection needs', () => {
      const db = openDatabase(join(dir, 'nested', 'deeper', 'workbench.db'));
      expect({
        journal: db.pragma('journal_mode', { simple: true }),
        synchronous: db.pragma('synchronous', { simple: true }),
        foreignKeys: db.pragma('foreign_keys', { simple: true }),
        busyTimeout: db.pragma('busy_timeout', { simple: true }),
        version: db.pragma('user_version', { simple: true }),
      }).toEqual({ journal: 'wal', synchronous: 2, foreignKeys: 1, busyTimeout: 5000, version: SCHEMA_VERSION });
      closeDatabase(db);
    });

    it('keeps runs across close and reopen', () => {
      const path = join(dir, 'workbench.db');
      const first = openDatabase(path);
      insertRun(first, newRun('r1', 1000, 'remember me'));
      closeDatabase(first);
      const second = openDatabase(path);
      expect(getRun(second, 'r1')?.promptPreview).toBe('remember me');
      closeDatabase(second);
    });

    it('logs each migration it applies on a new database', () => {
      const lines: string[] = [];
      const db = openDatabase(':memory:', { log: (line) => lines.push(line) });
      expect(lines).toHaveLength(SCHEMA_VERSION);
      expect(lines[0]).toMatch(/schema 1/);
      closeDatabase(db);
    });

    it('refuses a database written by a newer app version and leaves it untouched', () => {
      const path = join(dir, 'future.db');
      const future = new Database(path);
      future.exec('CREATE TABLE from_the_future (x)');
      future.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
      future.close();

      let failure: unknown;
      try {
        openDatabase(path);
      } catch (error) {
        failure = error;
      }
      expect(failure).toBeInstanceOf(WorkbenchFailure);
      expect((failure as WorkbenchFailure).error.code).toBe('config');
      expect((failure as WorkbenchFailure).message).toMatch(/newer version/);

      const check = new Database(path, { readonly: true });
      expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 5);
      expect(check.prepare("SELECT name FROM sqlite_master WHERE name = 'runs'").get()).toBeUndefined();
      check.close();
    });

    it('refuses a file that is not a database with an error saying what to do, leaving it as it was', () => {
      const path = join(dir, 'notes.db');
      const junk = 'these are my notes, not a database\n'.repeat(50);
      writeFileSync(path, junk);
      expect(() => openDatabase(path)).toThrow(/not a database\. Move that file aside/);
      expect(readFileSync(path, 'utf8')).toBe(junk);
    });
  });

  describe('closeDatabase()', () => {
    it('checkpoints the write-ahead log into the main file and can be called twice', () => {
      const path = join(dir, 'workbench.db');
      const db = openDatabase(path);
      insertRun(db, newRun('r1', 1000, 'checkpointed'));
      closeDatabase(db);
      closeDatabase(db);
      expect(db.open).toBe(false);
      // Reading with the WAL file gone proves the row reached the main database file.
      rmSync(`${path}-wal`, { force: true });
      const check = new Database(path, { readonly: true });
      expect(check.prepare('SELECT id FROM runs').all()).toEqual([{ id: 'r1' }]);
      check.close();
    });
  });
});
