import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { completeUpload, getFileByRun, insertUpload, listLocalFiles } from '../../../../../main/store/files';
import { migrateTo, schemaVersion } from '../../../../../main/store/migrations/index';
import { deleteRun, insertRun, searchRuns, updateRun } from '../../../../../main/store/runs';
import { newRun } from '../run-fixtures';

describe('migrations/0007-files', () => {
  it('keeps the runs of version 6 and adds files whose rows outlive a deleted upload run', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrateTo(db, 6);
    insertRun(db, newRun('old', 1_000, 'ask about herons'));
    updateRun(db, 'old', { status: 'completed', outputText: 'herons wade' });
    insertRun(db, newRun('up', 2_000, 'notes.txt', { endpoint: 'files.upload', promptText: 'notes.txt' }));

    migrateTo(db, 7);
    expect(schemaVersion(db)).toBe(7);
    // The store's queries are this build's: read with the latest schema.
    migrateTo(db);
    expect(searchRuns(db, { query: 'herons' }).items).toEqual([expect.objectContaining({ id: 'old', status: 'completed', promptPreview: 'ask about herons' })]);
    expect(searchRuns(db, { query: 'wade' }).items.map((r) => r.id)).toEqual(['old']);

    insertUpload(db, { key: 'lf_1', connectionId: 'sandbox', filename: 'notes.txt', bytes: 12, contentType: 'text/plain', runId: 'up', now: 2_000 });
    completeUpload(db, 'lf_1', { id: 'file_1', object: 'file', bytes: 12, created_at: 2, expires_at: null, filename: 'notes.txt' }, 2_100);
    expect(getFileByRun(db, 'up', 3_000)).toMatchObject({ id: 'file_1', status: 'complete' });
    deleteRun(db, 'up');
    expect(listLocalFiles(db, { limit: 10 }, 3_000)).toEqual([expect.objectContaining({ key: 'lf_1', id: 'file_1', runId: null })]);
    db.close();
  });
});
