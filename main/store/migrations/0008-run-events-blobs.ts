/**
 * 0008: run records apart from their bytes.
 * - `run_event_chunks`: a run's raw SSE events, appended as the run streams, each row a
 *   brotli-compressed chunk of consecutive events (run-event-codec.ts); `runs.event_count` says
 *   how many there are so History shows the count without reading them. Existing `events_json`
 *   logs move here and the column is left as '[]' (SQLite cannot drop it cheaply; nothing reads it).
 * - `blobs`: one row per blob in the content-addressed store (blobs.ts) that something refers to,
 *   with its size, MIME type and reference count. A row is inserted only once its file is on disk,
 *   so no row names a missing blob; files without a row are swept at start-up.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { CapturedEvent } from '../../../shared/contract/runs';
import { encodeEventChunk } from '../run-event-codec';
import type { Migration } from './migration';

/** Events per chunk when moving old logs (the recorder's own limit, fixed here for this migration). */
const CHUNK_EVENTS = 64;

export const migration0008: Migration = {
  version: 8,
  name: 'run-events-blobs',
  up(db) {
    db.exec(`
      CREATE TABLE run_event_chunks (
        run_seq INTEGER NOT NULL REFERENCES runs (seq) ON DELETE CASCADE,
        chunk INTEGER NOT NULL,
        first_event INTEGER NOT NULL,
        count INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (run_seq, chunk)
      );
      ALTER TABLE runs ADD COLUMN event_count INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE blobs (
        hash TEXT PRIMARY KEY,
        size INTEGER NOT NULL,
        mime TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        refs INTEGER NOT NULL DEFAULT 0
      );
    `);
    moveEventLogs(db);
  },
};

function moveEventLogs(db: BetterSqlite3.Database): void {
  // Only the row numbers up front: one log at a time is in memory, however large the history.
  const seqs = db.prepare<[], number>(`SELECT seq FROM runs WHERE events_json <> '[]' ORDER BY seq`).pluck().all();
  const read = db.prepare<[number], string>('SELECT events_json FROM runs WHERE seq = ?').pluck();
  const insert = db.prepare('INSERT INTO run_event_chunks (run_seq, chunk, first_event, count, data) VALUES (?, ?, ?, ?, ?)');
  const done = db.prepare(`UPDATE runs SET events_json = '[]', event_count = ? WHERE seq = ?`);
  for (const seq of seqs) {
    let events: CapturedEvent[];
    try {
      events = JSON.parse(read.get(seq) ?? '[]') as CapturedEvent[];
    } catch {
      events = [];
    }
    if (!Array.isArray(events)) events = [];
    for (let first = 0, chunk = 0; first < events.length; first += CHUNK_EVENTS, chunk++) {
      const part = events.slice(first, first + CHUNK_EVENTS);
      insert.run(seq, chunk, first, part.length, encodeEventChunk(part));
    }
    done.run(events.length, seq);
  }
}
