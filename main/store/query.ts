/**
 * Statement cache and slow-query log for the store's repositories. better-sqlite3 is synchronous,
 * so a slow query blocks the main process: anything over SLOW_QUERY_MS is reported through the
 * `log` the database was opened with, so it shows up before users feel it.
 */
import type BetterSqlite3 from 'better-sqlite3';

type Db = BetterSqlite3.Database;

/** Queries slower than this are logged. */
export const SLOW_QUERY_MS = 40;

const logs = new WeakMap<Db, (line: string) => void>();
const statements = new WeakMap<Db, Map<string, BetterSqlite3.Statement>>();

/** Remembers where `db` reports slow queries (called by openDatabase). */
export function setQueryLog(db: Db, log: ((line: string) => void) | undefined): void {
  if (log) logs.set(db, log);
  else logs.delete(db);
}

/** A prepared statement for `sql`, compiled once per database. */
export function prepare<Params extends unknown[] = unknown[], Row = unknown>(
  db: Db,
  sql: string,
): BetterSqlite3.Statement<Params, Row> {
  let cache = statements.get(db);
  if (!cache) {
    cache = new Map();
    statements.set(db, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    cache.set(sql, statement);
  }
  return statement as unknown as BetterSqlite3.Statement<Params, Row>;
}

/** Runs `fn` and logs it under `label` when it takes longer than SLOW_QUERY_MS. */
export function timed<T>(db: Db, label: string, fn: () => T): T {
  const log = logs.get(db);
  if (!log) return fn();
  const started = performance.now();
  try {
    return fn();
  } finally {
    const ms = performance.now() - started;
    if (ms > SLOW_QUERY_MS) log(`store: slow query ${label} took ${Math.round(ms)} ms`);
  }
}
