/**
 * 0007: `files`, the app's record of every file it uploaded or saw on a connection's Files API, so
 * the list of what you uploaded (names, sizes, ids, expiry) is browsable offline. `key` is the
 * app's own id, given when an upload starts, before the service names the file; `file_id` is the
 * service's id once known (unique per connection). An upload's run may be deleted from History
 * while the file lives on, so `run_id` is cleared rather than the row removed.
 */
import type { Migration } from './migration';

export const migration0007: Migration = {
  version: 7,
  name: 'files',
  up(db) {
    db.exec(`
      CREATE TABLE files (
        key TEXT PRIMARY KEY,
        file_id TEXT,
        connection_id TEXT NOT NULL,
        filename TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        content_type TEXT NOT NULL DEFAULT '',
        created_at INTEGER,
        expires_at INTEGER,
        public_url TEXT,
        public_url_expires_at INTEGER,
        status TEXT NOT NULL,
        status_message TEXT,
        last_seen_at INTEGER NOT NULL,
        run_id TEXT REFERENCES runs (id) ON DELETE SET NULL
      );
      CREATE UNIQUE INDEX files_by_file_id ON files (connection_id, file_id) WHERE file_id IS NOT NULL;
      CREATE INDEX files_by_seen ON files (last_seen_at DESC, key);
      CREATE INDEX files_by_run ON files (run_id);
    `);
  },
};
