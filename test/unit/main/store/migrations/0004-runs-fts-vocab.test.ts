import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrateTo, schemaVersion } from '../../../../../main/store/migrations/index';
import { insertRun, searchRuns, updateRun } from '../../../../../main/store/runs';
import { newRun } from '../run-fixtures';

describe('migrations/0004-runs-fts-vocab', () => {
  it('lists the terms of runs recorded at version 3, so typed prefixes find them', () => {
    const db = new Database(':memory:');
    migrateTo(db, 3);
    insertRun(db, newRun('old', 1_000, 'optimise the compiler'));
    updateRun(db, 'old', { status: 'completed', outputText: 'optimal inlining' });

    migrateTo(db, 4);
    expect(schemaVersion(db)).toBe(4);
    // The store's queries are this build's: read with the latest schema.
    migrateTo(db);
    const terms = db.prepare("SELECT term FROM runs_fts_vocab WHERE term >= 'optim' AND term < 'optin' ORDER BY term").pluck().all();
    expect(terms).toEqual(['optimal', 'optimise']);
    expect(searchRuns(db, { query: 'optim' }).items.map((r) => r.id)).toEqual(['old']);
    db.close();
  });
});
