/** The shape of one numbered schema migration. */
import type BetterSqlite3 from 'better-sqlite3';

export interface Migration {
  /** The `PRAGMA user_version` the database has once this migration is applied. */
  version: number;
  name: string;
  /** Runs inside the migration's own transaction; must not commit or roll back itself. */
  up(db: BetterSqlite3.Database): void;
}
