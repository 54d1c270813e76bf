import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrateTo, schemaVersion } from '../../../../../main/store/migrations/index';
import { getJobRecord, getStoredJob, insertJob, unfinishedJobs } from '../../../../../main/store/jobs';
import { deleteRun, insertRun, markInterruptedRuns, searchRuns, updateRun } from '../../../../../main/store/runs';
import { newRun } from '../run-fixtures';

describe('migrations/0006-jobs', () => {
  it('keeps the runs of version 5, turns deferred runs still pending into jobs, and leaves the rest alone', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrateTo(db, 5);
    insertRun(db, newRun('done', 1_000, 'ask about herons'));
    updateRun(db, 'done', { status: 'completed', outputText: 'herons wade' });
    insertRun(db, newRun('waiting', 2_000, 'ask later', { deferredRequestId: 'req-7', connectionId: 'conn-a' }));
    insertRun(db, newRun('answered', 3_000, 'ask earlier', { deferredRequestId: 'req-8' }));
    updateRun(db, 'answered', { status: 'completed' });

    migrateTo(db, 6);
    expect(schemaVersion(db)).toBe(6);
    // The store's queries are this build's: read with the latest schema.
    migrateTo(db);
    // Summaries only: a full record needs columns of later migrations.
    expect(searchRuns(db, {}).items.find((r) => r.id === 'done')).toMatchObject({ status: 'completed', promptPreview: 'ask about herons' });
    expect(searchRuns(db, { query: 'wade' }).items.map((r) => r.id)).toEqual(['done']);

    // The pending deferred run is now a job the queue resumes, polling the request id it had.
    expect(unfinishedJobs(db)).toEqual([
      expect.objectContaining({
        id: 'job-waiting',
        kind: 'deferred-chat',
        state: 'queued',
        runId: 'waiting',
        createdAt: 2_000,
        progress: { stage: 'pending', detail: { requestId: 'req-7', polls: 0 } },
        data: { runId: 'waiting', connectionId: 'conn-a', body: newRun('waiting', 2_000, 'ask later').request.body, headers: {}, requestId: 'req-7', startedAt: 2_000 },
      }),
    ]);
    expect(getJobRecord(db, 'job-waiting')!.events.map((e) => e.state)).toEqual(['queued']);
    // ...so a start-up does not mark that run interrupted.
    expect(markInterruptedRuns(db, 9_000)).toBe(0);

    // A job outlives a deleted run; deleting a job takes its history with it.
    deleteRun(db, 'waiting');
    expect(getStoredJob(db, 'job-waiting')?.runId).toBeNull();
    insertJob(db, { id: 'j2', kind: 'k', data: {}, createdAt: 5 });
    db.prepare('DELETE FROM jobs WHERE id = ?').run('j2');
    expect(db.prepare('SELECT COUNT(*) AS n FROM job_events WHERE job_id = ?').get('j2')).toEqual({ n: 0 });
    db.close();
  });
});
