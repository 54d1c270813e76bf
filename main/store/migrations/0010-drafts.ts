/**
 * 0010: `drafts`, each playground's unsent form as one JSON value per key (see
 * services/drafts-service.ts). `revision` only grows: a cleared draft keeps its row with a null
 * `state_json`, so a window that saw revision 7 can never mistake a later draft for an older one.
 * `writer` is the page that made the change (windows skip their own `drafts.changed`).
 */
import type { Migration } from './migration';

export const migration0010: Migration = {
  version: 10,
  name: 'drafts',
  up(db) {
    db.exec(`
      CREATE TABLE drafts (
        key TEXT PRIMARY KEY,
        revision INTEGER NOT NULL,
        state_json TEXT,
        writer TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `);
  },
};
