import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrateTo, schemaVersion } from '../../../../../main/store/migrations/index';
import { getJobSummary, insertJob, unfinishedJobs, updateJob } from '../../../../../main/store/jobs';

describe('migrations/0012-job-wait', () => {
  it('keeps the jobs of version 11 (not waiting) and lets a job keep its wait across a reopen', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrateTo(db, 11);
    insertJob(db, { id: 'job-old', kind: 'video', data: { runId: 'r' }, createdAt: 1_000 }, undefined);
    db.prepare("UPDATE jobs SET state = 'retrying', error_json = ? WHERE id = 'job-old'").run(JSON.stringify({ code: 'network', message: 'down' }));

    migrateTo(db, 12);
    expect(schemaVersion(db)).toBe(12);
    expect(getJobSummary(db, 'job-old')).toMatchObject({ state: 'retrying', error: { code: 'network' }, wait: null });

    const wait = { since: 1_000, failures: 3, reason: 'The app cannot reach the service.', nextAttemptAt: 9_000 };
    updateJob(db, 'job-old', { wait }, 2_000);
    expect(unfinishedJobs(db)).toEqual([expect.objectContaining({ id: 'job-old', state: 'retrying', wait })]);
    updateJob(db, 'job-old', { wait: null }, 3_000);
    expect(getJobSummary(db, 'job-old')?.wait).toBeNull();
    db.close();
  });
});
