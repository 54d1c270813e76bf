/**
 * `rebuildTable()`: a table changed the one way SQLite allows for what ALTER TABLE cannot do (a
 * CHECK constraint, a column's type), as https://sqlite.org/lang_altertable.html#otheralter says:
 * create the new table, copy every row with its rowid (an external-content FTS index points at
 * it), drop the old one, rename, recreate its indexes and triggers, and carry the AUTOINCREMENT
 * counter over so a deleted row's id is never handed out again.
 *
 * Migrations run inside a transaction, where `PRAGMA foreign_keys` cannot change, and
 * better-sqlite3 opens with foreign keys on. Dropping a table that others refer to would then
 * delete (ON DELETE CASCADE) or orphan their rows, so a table with child tables is refused here
 * rather than rebuilt with data loss; a table that only refers to others (a child) is safe, and
 * `foreign_key_check` after the copy proves its links still hold.
 */
import type Database from 'better-sqlite3';

export interface TableRebuild {
  table: string;
  /** The new table's CREATE TABLE statement under `name` (created as `<table>_new`, then renamed). */
  create: (name: string) => string;
  /** The columns copied, the same names in both tables. */
  columns: string;
  /** SQL run before the old table is dropped: dropping its triggers (its indexes go with it). */
  dropDependents?: string;
  /** SQL run after the rename: the indexes and triggers, as the new table needs them. */
  recreate: string;
}

export function rebuildTable(db: Database.Database, r: TableRebuild): void {
  const children = db
    .prepare<[string, string], string>(
      `SELECT DISTINCT m.name FROM sqlite_master m, pragma_foreign_key_list(m.name) f WHERE m.type = 'table' AND f."table" = ? AND m.name <> ?`,
    )
    .pluck()
    .all(r.table, r.table);
  if (children.length > 0) {
    throw new Error(`rebuild of ${r.table}: ${children.join(', ')} refer to it, and with foreign keys on dropping it would delete or orphan their rows`);
  }
  const hasSequence = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'`).get() !== undefined;
  const counter = hasSequence ? db.prepare<[string], number>(`SELECT seq FROM sqlite_sequence WHERE name = ?`).pluck().get(r.table) : undefined;
  const temp = `${r.table}_new`;
  db.exec(r.create(temp));
  db.exec(`INSERT INTO ${temp} (${r.columns}) SELECT ${r.columns} FROM ${r.table} ORDER BY rowid;`);
  if (r.dropDependents) db.exec(r.dropDependents);
  db.exec(`DROP TABLE ${r.table}; ALTER TABLE ${temp} RENAME TO ${r.table};`);
  db.exec(r.recreate);
  // The copy set the new counter to the highest id kept; a deleted newer row had gone higher.
  if (counter !== undefined) {
    const moved = db.prepare(`UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = ?`).run(counter, r.table).changes;
    if (moved === 0) db.prepare(`INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)`).run(r.table, counter);
  }
  const broken = db.prepare(`PRAGMA foreign_key_check(${r.table})`).all();
  if (broken.length > 0) throw new Error(`rebuild of ${r.table}: ${broken.length} row(s) break a foreign key`);
}
