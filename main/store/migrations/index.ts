/**
 * The ordered list of schema migrations and the runner that applies them under
 * `PRAGMA user_version`, each in its own transaction so a failure leaves the database at the
 * last good version.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { migration0001 } from './0001-runs';
import { migration0002 } from './0002-runs-fts';
import { migration0003 } from './0003-connections-settings';
import { migration0004 } from './0004-runs-fts-vocab';
import { migration0005 } from './0005-response-nodes';
import { migration0006 } from './0006-jobs';
import { migration0007 } from './0007-files';
import { migration0008 } from './0008-run-events-blobs';
import { migration0009 } from './0009-run-groups';
import { migration0010 } from './0010-drafts';
import { migration0011 } from './0011-gallery';
import { migration0012 } from './0012-job-wait';
import { migration0013 } from './0013-recordings';
import type { Migration } from './migration';

/** Every migration, in the order it must run. Append only; never edit a released one. */
export const MIGRATIONS: readonly Migration[] = [migration0001, migration0002, migration0003, migration0004, migration0005, migration0006, migration0007, migration0008, migration0009, migration0010, migration0011, migration0012, migration0013];

/** The schema version this build of the app writes. */
export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/** The database's current `PRAGMA user_version`. */
export function schemaVersion(db: BetterSqlite3.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Applies every migration above the database's version up to `target` (default: all).
 * Returns the versions applied. Refuses to go backwards: the caller checks for newer databases.
 */
export function migrateTo(
  db: BetterSqlite3.Database,
  target: number = LATEST_VERSION,
  log?: (line: string) => void,
): number[] {
  return applyMigrations(db, MIGRATIONS, target, log);
}

/** migrateTo over an explicit list (ascending versions); exported for the runner's own tests. */
export function applyMigrations(
  db: BetterSqlite3.Database,
  migrations: readonly Migration[],
  target: number,
  log?: (line: string) => void,
): number[] {
  const applied: number[] = [];
  for (const migration of migrations) {
    if (migration.version > target) break;
    if (migration.version <= schemaVersion(db)) continue;
    // IMMEDIATE takes the write lock first; the re-check inside covers another process that
    // migrated while we waited for it.
    const ran = db.transaction(() => {
      if (migration.version <= schemaVersion(db)) return false;
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
      return true;
    }).immediate();
    if (!ran) continue;
    applied.push(migration.version);
    log?.(`store: migrated to schema ${migration.version} (${migration.name})`);
  }
  return applied;
}
