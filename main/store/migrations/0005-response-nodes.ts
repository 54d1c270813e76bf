/**
 * 0005: `response_nodes`, the app's record of the Responses chains it has seen: one row per
 * stored response (created here or opened by id) and per compaction, keyed by connection and
 * id, linked to its parent. A node outlives the run that made it (the run may be deleted from
 * History), so `run_id` is cleared rather than the node removed.
 */
import type { Migration } from './migration';

export const migration0005: Migration = {
  version: 5,
  name: 'response-nodes',
  up(db) {
    db.exec(`
      CREATE TABLE response_nodes (
        connection_id TEXT NOT NULL,
        id TEXT NOT NULL,
        kind TEXT NOT NULL,
        parent_id TEXT,
        run_id TEXT REFERENCES runs (id) ON DELETE SET NULL,
        model TEXT NOT NULL DEFAULT '',
        created_at INTEGER NOT NULL,
        expires_at INTEGER,
        server_state TEXT NOT NULL,
        status TEXT,
        input_preview TEXT NOT NULL DEFAULT '',
        output_preview TEXT NOT NULL DEFAULT '',
        dropped_json TEXT,
        tokens_saved INTEGER,
        compaction_item_json TEXT,
        PRIMARY KEY (connection_id, id)
      );
      CREATE INDEX response_nodes_by_parent ON response_nodes (connection_id, parent_id);
      CREATE INDEX response_nodes_by_created ON response_nodes (connection_id, created_at DESC);
      CREATE INDEX response_nodes_by_run ON response_nodes (run_id);
    `);
  },
};
