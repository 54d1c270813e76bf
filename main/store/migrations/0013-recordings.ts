/**
 * 0013: recordings of live work.
 * - `gallery_items` admits `audio` (speech and recordings in the media library) and the origin
 *   `recorded` (a live session's recording, e.g. a call's stereo mix). SQLite cannot
 *   alter a CHECK constraint, so the table is rebuilt (`rebuildTable()`, ../rebuild-table.ts, as
 *   https://sqlite.org/lang_altertable.html#otheralter says): every row copied with its `seq` (the
 *   rowid `gallery_fts` points at, so the external-content index stays valid), its indexes and
 *   triggers recreated, the AUTOINCREMENT counter carried over so a deleted item's seq is never
 *   reused. The table's text stays written out here: a migration's SQL is frozen (0011's
 *   CREATE is not shared with it, so no later edit can change what an old migration made).
 *   The migration runner already holds a transaction, where `PRAGMA foreign_keys` cannot
 *   change; that is safe here because nothing refers to `gallery_items` (dropping a child table deletes no parent row), and
 *   `foreign_key_check` at the end proves the copied `run_id`s still point at runs (a dangling one,
 *   possible only if foreign keys were ever off, is cleared as ON DELETE SET NULL would have).
 * - `recording_sessions`: one per live session recorded as a run (its state, and when and how it
 *   ended: a crash is said so, not hidden).
 * - `audio_tracks`: per session and direction, PCM appended to a file under the data folder while
 *   the session runs, then a WAV blob (the row holds a reference on it; a trigger releases it
 *   when the row goes, also when a deleted run takes its tracks with it).
 * - `session_marks`: typed marks on the session clock (speech started, first audio, ...) with
 *   how many events had been captured before each, so a timeline interleaves them without
 *   reading the whole log.
 */
import { rebuildTable } from '../rebuild-table';
import type { Migration } from './migration';

export const migration0013: Migration = {
  version: 13,
  name: 'recordings',
  up(db) {
    rebuildGallery(db);
    db.exec(`
      CREATE TABLE recording_sessions (
        run_id TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('recording', 'ended', 'aborted', 'crashed')),
        started_at INTEGER NOT NULL,
        ended_at INTEGER,
        end_reason TEXT
      );
      CREATE INDEX recording_sessions_live ON recording_sessions (state) WHERE state = 'recording';

      CREATE TABLE audio_tracks (
        id TEXT PRIMARY KEY,
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        direction TEXT NOT NULL CHECK (direction IN ('in', 'out')),
        name TEXT NOT NULL DEFAULT '',
        format TEXT NOT NULL CHECK (format IN ('pcm_s16le')),
        sample_rate INTEGER NOT NULL CHECK (sample_rate > 0),
        channels INTEGER NOT NULL CHECK (channels > 0),
        start_ms REAL NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('recording', 'closed', 'crashed', 'lost')),
        frames INTEGER,
        hash TEXT,
        bytes INTEGER,
        created_at INTEGER NOT NULL,
        ended_at INTEGER
      );
      CREATE INDEX audio_tracks_by_run ON audio_tracks (run_id, created_at);
      CREATE INDEX audio_tracks_live ON audio_tracks (state) WHERE state = 'recording';
      CREATE TRIGGER audio_tracks_release_blob AFTER DELETE ON audio_tracks WHEN old.hash IS NOT NULL BEGIN
        UPDATE blobs SET refs = MAX(refs - 1, 0) WHERE hash = old.hash;
      END;

      CREATE TABLE session_marks (
        seq INTEGER PRIMARY KEY,
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        type TEXT NOT NULL,
        t_ms REAL NOT NULL,
        event_index INTEGER NOT NULL,
        turn INTEGER,
        data_json TEXT
      );
      CREATE INDEX session_marks_by_run ON session_marks (run_id, event_index, seq);
    `);
  },
};

const GALLERY_COLUMNS = `seq, id, kind, origin, hash, mime, bytes, width, height, duration, prompt, revised_prompt, model, name,
  created_at, run_id, job_id, source_ids, thumb_hash, thumb_mime`;

function rebuildGallery(db: Parameters<Migration['up']>[0]): void {
  // A link to a run that is gone (written with foreign keys off, by hand or by a tool) is cleared
  // as the run's deletion would have cleared it, rather than refusing to open the history (the
  // copy below would fail on it).
  db.exec('UPDATE gallery_items SET run_id = NULL WHERE run_id IS NOT NULL AND run_id NOT IN (SELECT id FROM runs)');
  rebuildTable(db, {
    table: 'gallery_items',
    create: (name) => `
    CREATE TABLE ${name} (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      kind TEXT NOT NULL CHECK (kind IN ('image', 'video', 'audio')),
      origin TEXT NOT NULL CHECK (origin IN ('generated', 'edited', 'extended', 'input', 'recorded')),
      hash TEXT NOT NULL,
      mime TEXT NOT NULL,
      bytes INTEGER NOT NULL,
      width INTEGER,
      height INTEGER,
      duration REAL,
      prompt TEXT NOT NULL DEFAULT '',
      revised_prompt TEXT,
      model TEXT,
      name TEXT NOT NULL DEFAULT '',
      created_at INTEGER NOT NULL,
      run_id TEXT REFERENCES runs (id) ON DELETE SET NULL,
      job_id TEXT,
      source_ids TEXT NOT NULL DEFAULT '[]',
      thumb_hash TEXT,
      thumb_mime TEXT
    );
  `,
    columns: GALLERY_COLUMNS,
    dropDependents: `
    DROP TRIGGER gallery_fts_after_insert;
    DROP TRIGGER gallery_fts_after_delete;
    DROP TRIGGER gallery_fts_after_update;
  `,
    recreate: `
    CREATE INDEX gallery_by_created ON gallery_items (created_at DESC, seq DESC);
    CREATE INDEX gallery_by_kind ON gallery_items (kind, created_at DESC, seq DESC);
    CREATE INDEX gallery_by_run ON gallery_items (run_id) WHERE run_id IS NOT NULL;
    CREATE INDEX gallery_by_job ON gallery_items (job_id) WHERE job_id IS NOT NULL;
    CREATE INDEX gallery_by_hash ON gallery_items (hash);

    CREATE TRIGGER gallery_fts_after_insert AFTER INSERT ON gallery_items BEGIN
      INSERT INTO gallery_fts (rowid, prompt, revised_prompt, model, name)
      VALUES (new.seq, new.prompt, new.revised_prompt, new.model, new.name);
    END;
    CREATE TRIGGER gallery_fts_after_delete AFTER DELETE ON gallery_items BEGIN
      INSERT INTO gallery_fts (gallery_fts, rowid, prompt, revised_prompt, model, name)
      VALUES ('delete', old.seq, old.prompt, old.revised_prompt, old.model, old.name);
    END;
    CREATE TRIGGER gallery_fts_after_update AFTER UPDATE OF prompt, revised_prompt, model, name ON gallery_items BEGIN
      INSERT INTO gallery_fts (gallery_fts, rowid, prompt, revised_prompt, model, name)
      VALUES ('delete', old.seq, old.prompt, old.revised_prompt, old.model, old.name);
      INSERT INTO gallery_fts (rowid, prompt, revised_prompt, model, name)
      VALUES (new.seq, new.prompt, new.revised_prompt, new.model, new.name);
    END;
  `,
  });
}
