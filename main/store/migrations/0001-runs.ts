/**
 * 0001: the `runs` table — one row per recorded request. Small summary columns come first and the
 * large JSON blobs last, so listing history never walks a row's overflow pages. `seq` is an
 * explicit INTEGER PRIMARY KEY (a rowid alias that VACUUM keeps stable) for the full-text index
 * to point at; `id` is the public, unique identifier.
 */
import type { Migration } from './migration';

export const migration0001: Migration = {
  version: 1,
  name: 'runs',
  up(db) {
    db.exec(`
      CREATE TABLE runs (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        endpoint TEXT NOT NULL,
        model TEXT NOT NULL,
        status TEXT NOT NULL,
        connection_id TEXT NOT NULL,
        connection_name TEXT NOT NULL,
        is_sandbox INTEGER NOT NULL DEFAULT 0,
        deferred_request_id TEXT,
        prompt_preview TEXT NOT NULL DEFAULT '',
        output_preview TEXT NOT NULL DEFAULT '',
        cost_ticks INTEGER,
        total_ms INTEGER,
        total_tokens INTEGER,
        retries INTEGER NOT NULL DEFAULT 0,
        timings_json TEXT NOT NULL,
        usage_json TEXT,
        error_json TEXT,
        prompt_text TEXT NOT NULL DEFAULT '',
        output_text TEXT NOT NULL DEFAULT '',
        request_json TEXT NOT NULL,
        response_json TEXT,
        output_json TEXT,
        events_json TEXT NOT NULL DEFAULT '[]'
      );
      CREATE INDEX runs_by_created ON runs (created_at DESC, id DESC);
      CREATE INDEX runs_by_model ON runs (model, created_at DESC, id DESC);
      CREATE INDEX runs_by_status ON runs (status, created_at DESC, id DESC);
    `);
  },
};
