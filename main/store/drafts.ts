/**
 * The `drafts` table (migration 0010): one row per key holding the form's state as JSON text,
 * replaced whole. Writes go through one transaction each, so the revision a caller gets back is
 * the one stored with exactly its state. The state is kept as the caller's JSON text: the store
 * neither parses nor reshapes a form it does not own.
 */
import type { Db } from './db';
import { prepare, timed } from './query';

/** A stored draft; `stateJson` null once cleared. */
export interface StoredDraft {
  key: string;
  revision: number;
  stateJson: string | null;
  updatedAt: number;
}

interface DraftRow {
  key: string;
  revision: number;
  state_json: string | null;
  updated_at: number;
}

const toDraft = (row: DraftRow): StoredDraft => ({ key: row.key, revision: row.revision, stateJson: row.state_json, updatedAt: row.updated_at });

/** The draft under `key`, or null when there never was one. */
export function getDraft(db: Db, key: string): StoredDraft | null {
  const row = prepare<[string], DraftRow>(db, 'SELECT key, revision, state_json, updated_at FROM drafts WHERE key = ?').get(key);
  return row ? toDraft(row) : null;
}

/** Every draft that holds a state (cleared ones are left out), by key. */
export function listDrafts(db: Db): StoredDraft[] {
  return timed(db, 'listDrafts', () =>
    prepare<[], DraftRow>(db, 'SELECT key, revision, state_json, updated_at FROM drafts WHERE state_json IS NOT NULL ORDER BY key').all(),
  ).map(toDraft);
}

/** How many keys have a row (cleared or not). */
export function countDraftKeys(db: Db): number {
  return (prepare<[], { n: number }>(db, 'SELECT COUNT(*) AS n FROM drafts').get() ?? { n: 0 }).n;
}

/** The row under `key` set to this revision and state (inside the caller's transaction). */
function upsert(db: Db, key: string, revision: number, stateJson: string | null, writer: string, now: number): void {
  prepare(
    db,
    `INSERT INTO drafts (key, revision, state_json, writer, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET revision = excluded.revision, state_json = excluded.state_json,
       writer = excluded.writer, updated_at = excluded.updated_at`,
  ).run(key, revision, stateJson, writer, now);
}

/**
 * Writes `stateJson` (null clears) under `key` with the next revision; returns the row as it was
 * before (null when new) and the new revision.
 */
export function writeDraft(
  db: Db,
  key: string,
  stateJson: string | null,
  writer: string,
  now: number,
): { previous: StoredDraft | null; revision: number } {
  return db.transaction(() => {
    const previous = getDraft(db, key);
    const revision = (previous?.revision ?? 0) + 1;
    upsert(db, key, revision, stateJson, writer, now);
    return { previous, revision };
  }).immediate();
}

/**
 * Stores `stateJson` under `key` with the next revision, reading only the current revision (the
 * path taken on every pause in typing). A key that has no row yet is refused (null) once `maxKeys`
 * keys exist, in the same transaction.
 */
export function putDraft(db: Db, key: string, stateJson: string, writer: string, now: number, maxKeys: number): number | null {
  return db.transaction(() => {
    const current = prepare<[string], { revision: number }>(db, 'SELECT revision FROM drafts WHERE key = ?').get(key);
    if (!current && countDraftKeys(db) >= maxKeys) return null;
    const revision = (current?.revision ?? 0) + 1;
    upsert(db, key, revision, stateJson, writer, now);
    return revision;
  }).immediate();
}

/** Empties the draft under `key` (next revision); what it held, or null when there was no row (nothing written). */
export function clearDraft(db: Db, key: string, writer: string, now: number): { previous: StoredDraft; revision: number } | null {
  return db.transaction(() => {
    const previous = getDraft(db, key);
    if (!previous) return null;
    const revision = previous.revision + 1;
    upsert(db, key, revision, null, writer, now);
    return { previous, revision };
  }).immediate();
}
