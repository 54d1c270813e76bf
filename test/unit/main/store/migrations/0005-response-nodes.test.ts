import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrateTo, schemaVersion } from '../../../../../main/store/migrations/index';
import { getResponseNode, upsertResponseNode } from '../../../../../main/store/response-nodes';
import { deleteRun, insertRun, searchRuns, updateRun } from '../../../../../main/store/runs';
import { newRun } from '../run-fixtures';

describe('migrations/0005-response-nodes', () => {
  it('keeps the runs of version 4 and adds chains whose nodes outlive a deleted run', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrateTo(db, 4);
    insertRun(db, newRun('old', 1_000, 'ask about herons'));
    updateRun(db, 'old', { status: 'completed', outputText: 'herons wade' });

    migrateTo(db, 5);
    expect(schemaVersion(db)).toBe(5);
    // The store's queries are this build's: read with the latest schema.
    migrateTo(db);
    // Summaries only: a full record needs columns of later migrations.
    expect(searchRuns(db, {}).items[0]).toMatchObject({ id: 'old', status: 'completed', promptPreview: 'ask about herons' });
    expect(searchRuns(db, { query: 'wade' }).items.map((r) => r.id)).toEqual(['old']);

    upsertResponseNode(db, {
      id: 'r1',
      kind: 'response',
      parentId: null,
      connectionId: 'sandbox',
      runId: 'old',
      model: 'svc-4',
      createdAt: 1_000,
      expiresAt: 2_000,
      serverState: 'stored',
      status: 'completed',
      inputPreview: 'ask about herons',
      outputPreview: 'herons wade',
    });
    deleteRun(db, 'old');
    expect(getResponseNode(db, 'sandbox', 'r1', 1_500)).toMatchObject({ id: 'r1', runId: null, serverState: 'stored' });
    db.close();
  });
});
