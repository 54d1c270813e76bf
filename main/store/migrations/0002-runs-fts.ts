/**
 * 0002: full-text search over runs. An external-content FTS5 table reads the text from
 * `runs.prompt_text` / `runs.output_text` (stored once) keyed by `runs.seq`; triggers keep it in
 * step with every insert, update of the text and delete, so no code path can forget. Existing
 * rows are indexed by a rebuild.
 */
import type { Migration } from './migration';

export const migration0002: Migration = {
  version: 2,
  name: 'runs-fts',
  up(db) {
    db.exec(`
      CREATE VIRTUAL TABLE runs_fts USING fts5(
        prompt_text,
        output_text,
        content = 'runs',
        content_rowid = 'seq',
        tokenize = 'unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER runs_fts_after_insert AFTER INSERT ON runs BEGIN
        INSERT INTO runs_fts (rowid, prompt_text, output_text)
        VALUES (new.seq, new.prompt_text, new.output_text);
      END;
      CREATE TRIGGER runs_fts_after_delete AFTER DELETE ON runs BEGIN
        INSERT INTO runs_fts (runs_fts, rowid, prompt_text, output_text)
        VALUES ('delete', old.seq, old.prompt_text, old.output_text);
      END;
      CREATE TRIGGER runs_fts_after_update AFTER UPDATE OF prompt_text, output_text ON runs BEGIN
        INSERT INTO runs_fts (runs_fts, rowid, prompt_text, output_text)
        VALUES ('delete', old.seq, old.prompt_text, old.output_text);
        INSERT INTO runs_fts (rowid, prompt_text, output_text)
        VALUES (new.seq, new.prompt_text, new.output_text);
      END;
      INSERT INTO runs_fts (runs_fts) VALUES ('rebuild');
    `);
  },
};
