/**
 * Opens the app's SQLite database: creates its folder, sets the pragmas every connection needs
 * (WAL, synchronous=FULL, foreign keys, busy timeout) and brings the schema up to date. Refuses a
 * database written by a newer version of the app rather than guess at its schema.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type BetterSqlite3 from 'better-sqlite3';
import { WorkbenchFailure } from '../../shared/contract/errors';
import { LATEST_VERSION, migrateTo, schemaVersion } from './migrations/index';
import { setQueryLog } from './query';
import { ensurePrivateFile } from './private-dir';

/** An open better-sqlite3 connection; every repository function takes one first. */
export type Db = BetterSqlite3.Database;

export interface OpenOptions {
  /** Receives migration notes and queries slower than ~40 ms. Never receives secrets. */
  log?: (line: string) => void;
}

/** The schema version this build writes (`PRAGMA user_version`). */
export const SCHEMA_VERSION: number = LATEST_VERSION;

/**
 * Opens (creating folders), sets WAL, synchronous=FULL, foreign_keys=ON, busy_timeout=5000 and
 * runs pending migrations. `':memory:'` is allowed. A database from a newer app version throws a
 * `config` WorkbenchFailure and is left untouched.
 */
export function openDatabase(path: string, options: OpenOptions = {}): Db {
  const inMemory = path === ':memory:' || path === '';
  if (!inMemory) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // History is private: the file (and so SQLite's -wal and -shm beside it) is 0600 whatever
    // the umask, and one left wider by an older build is tightened.
    ensurePrivateFile(path);
    for (const side of ['-wal', '-shm']) if (existsSync(path + side)) ensurePrivateFile(path + side);
  }
  const db = new Database(path);
  try {
    db.pragma('busy_timeout = 5000');
    const found = schemaVersion(db);
    if (found > SCHEMA_VERSION) throw newerDatabase(path, found);
    db.pragma('journal_mode = WAL');
    // FULL: a run the user saw complete must survive a power cut, not only an app crash.
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    setQueryLog(db, options.log);
    migrateTo(db, SCHEMA_VERSION, options.log);
    return db;
  } catch (error) {
    db.close();
    throw isDamaged(error) ? damagedDatabase(path) : error;
  }
}

/** Checkpoints the WAL into the main file, refreshes planner statistics and closes. Idempotent. */
export function closeDatabase(db: Db): void {
  if (!db.open) return;
  try {
    db.pragma('optimize');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    setQueryLog(db, undefined);
    db.close();
  }
}

function isDamaged(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT';
}

function damagedDatabase(path: string): WorkbenchFailure {
  return new WorkbenchFailure({
    code: 'config',
    message: `The history database at ${path} is damaged or is not a database. Move that file aside to start with an empty history.`,
  });
}

function newerDatabase(path: string, found: number): WorkbenchFailure {
  return new WorkbenchFailure({
    code: 'config',
    message:
      `The history database at ${path} was written by a newer version of Inference Workbench ` +
      `(schema ${found}; this version understands up to ${SCHEMA_VERSION}). ` +
      'Update the app, or move that file aside to start with an empty history.',
  });
}
