import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { rebuildTable } from '../../../../main/store/rebuild-table';

/** A parent `lists` and a table `notes` with a CHECK to widen (AUTOINCREMENT, an index, a trigger). */
function fixture(): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  db.exec(`
    CREATE TABLE lists (id TEXT PRIMARY KEY);
    CREATE TABLE notes (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL CHECK (kind IN ('a')), list_id TEXT REFERENCES lists (id) ON DELETE SET NULL);
    CREATE INDEX notes_by_kind ON notes (kind);
    CREATE TABLE log (what TEXT);
    CREATE TRIGGER notes_logged AFTER INSERT ON notes BEGIN INSERT INTO log VALUES (new.kind); END;
    INSERT INTO lists VALUES ('l1');
    INSERT INTO notes (kind, list_id) VALUES ('a', 'l1'), ('a', NULL), ('a', 'l1');
    DELETE FROM notes WHERE seq = 3;
    DELETE FROM log;
  `);
  return db;
}

const widen = {
  table: 'notes',
  create: (name: string) => `CREATE TABLE ${name} (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL CHECK (kind IN ('a', 'b')), list_id TEXT REFERENCES lists (id) ON DELETE SET NULL)`,
  columns: 'seq, kind, list_id',
  dropDependents: 'DROP TRIGGER notes_logged;',
  recreate: `CREATE INDEX notes_by_kind ON notes (kind);
    CREATE TRIGGER notes_logged AFTER INSERT ON notes BEGIN INSERT INTO log VALUES (new.kind); END;`,
};

describe('rebuildTable', () => {
  it('keeps every row and rowid, recreates indexes and triggers, and never reuses a deleted id', () => {
    const db = fixture();
    const before = db.prepare('SELECT * FROM notes ORDER BY seq').all();
    db.transaction(() => rebuildTable(db, widen))();
    expect(db.prepare('SELECT * FROM notes ORDER BY seq').all()).toEqual(before);
    db.prepare(`INSERT INTO notes (kind) VALUES ('b')`).run();
    expect(db.prepare('SELECT max(seq) FROM notes').pluck().get()).toBe(4);
    expect(db.prepare('SELECT what FROM log').pluck().all()).toEqual(['b']);
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE tbl_name = 'notes' AND type IN ('index', 'trigger') ORDER BY name`).pluck().all()).toEqual(['notes_by_kind', 'notes_logged']);
    expect(db.prepare(`SELECT sql FROM sqlite_master WHERE name = 'notes'`).pluck().get()).toMatch(/^CREATE TABLE "notes" \(.*'a', 'b'/);
    // Its own links still behave: a deleted parent clears them.
    db.prepare(`DELETE FROM lists WHERE id = 'l1'`).run();
    expect(db.prepare('SELECT list_id FROM notes WHERE seq = 1').pluck().get()).toBeNull();
    db.close();
  });

  it('refuses a table that others refer to (foreign keys on: dropping it would take their rows), changing nothing', () => {
    const db = fixture();
    db.exec(`CREATE TABLE tags (note_seq INTEGER REFERENCES notes (seq) ON DELETE CASCADE); INSERT INTO tags VALUES (1);`);
    expect(() => db.transaction(() => rebuildTable(db, widen))()).toThrow('rebuild of notes: tags refer to it, and with foreign keys on dropping it would delete or orphan their rows');
    expect(db.prepare('SELECT count(*) FROM tags').pluck().get()).toBe(1);
    expect(db.prepare('SELECT count(*) FROM notes').pluck().get()).toBe(2);
    db.close();
  });

  it('fails on a row whose link is broken (written with foreign keys off), rolling the migration back', () => {
    const db = fixture();
    db.pragma('foreign_keys = OFF');
    db.exec(`INSERT INTO notes (kind, list_id) VALUES ('a', 'gone')`);
    db.pragma('foreign_keys = ON');
    expect(() => db.transaction(() => rebuildTable(db, widen))()).toThrow(/FOREIGN KEY/);
    expect(db.prepare(`SELECT sql FROM sqlite_master WHERE name = 'notes'`).pluck().get()).toMatch(/IN \('a'\)\)/);
    db.close();
  });
});
