/**
 * 0004: a read-only view of the full-text index's terms (fts5vocab), so search can expand a
 * typed prefix to the concrete words it stands for instead of paying for FTS's prefix merge.
 */
import type { Migration } from './migration';

export const migration0004: Migration = {
  version: 4,
  name: 'runs-fts-vocab',
  up(db) {
    db.exec(`CREATE VIRTUAL TABLE runs_fts_vocab USING fts5vocab(runs_fts, 'row');`);
  },
};
