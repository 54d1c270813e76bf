/**
 * 0009: runs started together (Compare's columns) carry the same group id and kind, so History
 * lists them as one comparison instead of unrelated rows. The index serves "every run of group X".
 */
import type { Migration } from './migration';

export const migration0009: Migration = {
  version: 9,
  name: 'run-groups',
  up(db) {
    db.exec(`
      ALTER TABLE runs ADD COLUMN group_id TEXT;
      ALTER TABLE runs ADD COLUMN group_kind TEXT;
      CREATE INDEX runs_by_group ON runs (group_id) WHERE group_id IS NOT NULL;
    `);
  },
};
