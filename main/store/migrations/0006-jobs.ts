/**
 * 0006: durable jobs. `jobs` holds work that must finish whatever happens to windows (written
 * before its first request leaves, resumed at start-up); `job_events` keeps each job's state
 * history. A job outlives the run it records into only as long as the run exists: deleting the
 * run from History clears `run_id`, the job's own record stays.
 *
 * Deferred chat runs still pending from before this version were resumed from the runs table
 * itself; they become `deferred-chat` jobs here so the queue resumes them like any other.
 */
import type { Migration } from './migration';

interface PendingDeferredRow {
  id: string;
  created_at: number;
  connection_id: string;
  deferred_request_id: string;
  request_json: string;
}

export const migration0006: Migration = {
  version: 6,
  name: 'jobs',
  up(db) {
    db.exec(`
      CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        state TEXT NOT NULL,
        attempt INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        run_id TEXT REFERENCES runs (id) ON DELETE SET NULL,
        progress TEXT,
        progress_json TEXT,
        error_json TEXT,
        result_json TEXT,
        data_json TEXT NOT NULL
      );
      CREATE INDEX jobs_by_created ON jobs (created_at DESC, id DESC);
      CREATE INDEX jobs_unfinished ON jobs (created_at) WHERE state IN ('queued', 'running', 'retrying');
      CREATE INDEX jobs_by_run ON jobs (run_id);
      CREATE TABLE job_events (
        seq INTEGER PRIMARY KEY,
        job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        at INTEGER NOT NULL,
        state TEXT NOT NULL,
        detail_json TEXT
      );
      CREATE INDEX job_events_by_job ON job_events (job_id, seq);
    `);
    const pending = db
      .prepare(
        `SELECT id, created_at, connection_id, deferred_request_id, request_json FROM runs
         WHERE status = 'pending' AND deferred_request_id IS NOT NULL ORDER BY created_at, id`,
      )
      .all() as PendingDeferredRow[];
    const insertJob = db.prepare(
      `INSERT INTO jobs (id, kind, state, attempt, created_at, updated_at, run_id, progress, progress_json, data_json)
       VALUES (?, 'deferred-chat', 'queued', 0, ?, ?, ?, 'pending', ?, ?)`,
    );
    const insertEvent = db.prepare(`INSERT INTO job_events (job_id, at, state, detail_json) VALUES (?, ?, 'queued', ?)`);
    const now = Date.now();
    for (const run of pending) {
      const request = JSON.parse(run.request_json) as { body?: unknown };
      const jobId = `job-${run.id}`;
      const data = { runId: run.id, connectionId: run.connection_id, body: request.body ?? {}, headers: {}, requestId: run.deferred_request_id, startedAt: run.created_at };
      insertJob.run(jobId, run.created_at, now, run.id, JSON.stringify({ requestId: run.deferred_request_id, polls: 0 }), JSON.stringify(data));
      insertEvent.run(jobId, now, JSON.stringify({ from: 'schema 6: a deferred run left pending' }));
    }
  },
};
