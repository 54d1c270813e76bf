import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrateTo, schemaVersion } from '../../../../../main/store/migrations/index';
import { searchRuns } from '../../../../../main/store/run-search';
import { getRun, insertRun, updateRun } from '../../../../../main/store/runs';
import { newRun } from '../run-fixtures';

/** A version 8 database holding runs recorded before runs could be grouped. */
function v8WithRuns(): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrateTo(db, 8);
  insertRun(db, newRun('done', 1_000, 'ask about herons'));
  updateRun(db, 'done', { status: 'completed', outputText: 'herons wade' });
  insertRun(db, newRun('failed', 2_000, 'ask about egrets'));
  updateRun(db, 'failed', { status: 'error' });
  return db;
}

describe('migrations/0009-run-groups', () => {
  it('keeps the runs of version 8, ungrouped, and records the group of a run made after it', () => {
    const db = v8WithRuns();
    expect(migrateTo(db, 9)).toEqual([9]);
    expect(schemaVersion(db)).toBe(9);
    // The store's queries are this build's: read with the latest schema.
    migrateTo(db);

    // The old runs are still there, as they were, belonging to no comparison.
    expect(getRun(db, 'done')).toMatchObject({ status: 'completed', promptPreview: 'ask about herons', group: null });
    expect(getRun(db, 'failed')).toMatchObject({ status: 'error', group: null });
    expect(searchRuns(db, { query: 'wade' }).items.map((r) => r.id)).toEqual(['done']);
    expect(searchRuns(db, {}).items.map((r) => [r.id, r.group])).toEqual([
      ['failed', null],
      ['done', null],
    ]);

    // Columns of a comparison started after the upgrade carry their group.
    const group = { kind: 'compare', id: 'cmp-1' } as const;
    insertRun(db, newRun('left', 3_000, 'compare herons', { group }));
    insertRun(db, newRun('right', 3_000, 'compare herons', { group, model: 'grok-3' }));
    expect(getRun(db, 'left')?.group).toEqual(group);
    expect(searchRuns(db, {}).items.filter((r) => r.group?.id === 'cmp-1').map((r) => r.id).sort()).toEqual(['left', 'right']);
    db.close();
  });

  it('finds the runs of one group through an index, not by reading every run', () => {
    const db = v8WithRuns();
    migrateTo(db, 9);
    const plan = db.prepare('EXPLAIN QUERY PLAN SELECT id FROM runs WHERE group_id = ?').all('cmp-1') as { detail: string }[];
    expect(plan.map((p) => p.detail).join('\n')).toMatch(/USING INDEX runs_by_group/);
    db.close();
  });
});
