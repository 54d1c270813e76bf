/**
 * Connection profiles the user saved: a name and a base URL. API keys are not here; they live
 * in the KeyStore under the profile's id. The built-in sandbox is not stored.
 */
import type { Db } from './db';
import { prepare, timed } from './query';

export interface StoredConnection {
  id: string;
  name: string;
  baseUrl: string;
  createdAt: number;
  updatedAt: number;
}

interface ConnectionRow {
  id: string;
  name: string;
  base_url: string;
  created_at: number;
  updated_at: number;
}

const COLUMNS = 'id, name, base_url, created_at, updated_at';

/** Every saved profile, oldest first (the order the user added them). */
export function listConnections(db: Db): StoredConnection[] {
  return timed(db, 'listConnections', () =>
    prepare<[], ConnectionRow>(db, `SELECT ${COLUMNS} FROM connections ORDER BY created_at, id`).all(),
  ).map(toConnection);
}

/** Profile `id`, or null. */
export function getConnection(db: Db, id: string): StoredConnection | null {
  const row = prepare<[string], ConnectionRow>(db, `SELECT ${COLUMNS} FROM connections WHERE id = ?`).get(id);
  return row ? toConnection(row) : null;
}

/** Creates profile `c.id` or renames/re-points it; `createdAt` is kept on update. */
export function upsertConnection(db: Db, c: { id: string; name: string; baseUrl: string }, now: number): StoredConnection {
  const row = timed(db, 'upsertConnection', () =>
    prepare<[Record<string, unknown>], ConnectionRow>(
      db,
      `INSERT INTO connections (id, name, base_url, created_at, updated_at)
       VALUES (@id, @name, @baseUrl, @now, @now)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, base_url = excluded.base_url, updated_at = excluded.updated_at
       RETURNING ${COLUMNS}`,
    ).get({ id: c.id, name: c.name, baseUrl: c.baseUrl, now }),
  );
  if (!row) throw new Error(`upsertConnection: no row returned for ${c.id}`);
  return toConnection(row);
}

/** Deletes profile `id`. Returns whether it existed. */
export function deleteConnection(db: Db, id: string): boolean {
  return prepare(db, 'DELETE FROM connections WHERE id = ?').run(id).changes > 0;
}

function toConnection(row: ConnectionRow): StoredConnection {
  return { id: row.id, name: row.name, baseUrl: row.base_url, createdAt: row.created_at, updatedAt: row.updated_at };
}
