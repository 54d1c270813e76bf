/**
 * 0011: the gallery. `gallery_items` holds one row per image or video the app produced or sent
 * (its bytes in the blob store: each item holds one reference on its blob and one on its
 * thumbnail, so an orphan sweep never takes them); `gallery_fts` indexes prompt, revised prompt,
 * model and name, kept in step by triggers (`gallery_fts_vocab` expands a typed prefix). Rows are
 * listed newest first by (created_at, seq).
 * A History run may be deleted while its images live on, so `run_id` is cleared, not the row.
 * `job_id` names a video job without a foreign key: a job's record may be dismissed while the
 * video stays.
 */
import type { Migration } from './migration';

export const migration0011: Migration = {
  version: 11,
  name: 'gallery',
  up(db) {
    db.exec(`
      CREATE TABLE gallery_items (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (kind IN ('image', 'video')),
        origin TEXT NOT NULL CHECK (origin IN ('generated', 'edited', 'extended', 'input')),
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
      CREATE INDEX gallery_by_created ON gallery_items (created_at DESC, seq DESC);
      CREATE INDEX gallery_by_kind ON gallery_items (kind, created_at DESC, seq DESC);
      CREATE INDEX gallery_by_run ON gallery_items (run_id) WHERE run_id IS NOT NULL;
      CREATE INDEX gallery_by_job ON gallery_items (job_id) WHERE job_id IS NOT NULL;
      CREATE INDEX gallery_by_hash ON gallery_items (hash);

      CREATE VIRTUAL TABLE gallery_fts USING fts5(
        prompt,
        revised_prompt,
        model,
        name,
        content = 'gallery_items',
        content_rowid = 'seq',
        tokenize = 'unicode61 remove_diacritics 2'
      );
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
      CREATE VIRTUAL TABLE gallery_fts_vocab USING fts5vocab(gallery_fts, 'row');
    `);
  },
};
