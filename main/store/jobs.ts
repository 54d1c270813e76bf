/**
 * The jobs repository: durable jobs and their state history (migration 0006). Every change of a
 * job's state writes the row and its history entry in one transaction; `insertJob` takes the
 * caller's own write (the run the job records into) into that same transaction, so the job and
 * its record exist together or not at all.
 */
import type { WorkbenchError } from '../../shared/contract/errors';
import { UNFINISHED_JOB_STATES, type JobEvent, type JobProgress, type JobRecord, type JobState, type JobSummary, type JobWait } from '../../shared/contract/jobs';
import type { Db } from './db';
import { prepare, timed } from './query';

/** A job as it is first written. */
export interface NewJob {
  id: string;
  kind: string;
  data: unknown;
  runId?: string | null;
  createdAt: number;
}

/** A job row with its data, for the queue that runs it. */
export interface StoredJob extends JobSummary {
  /** The kind's data as stored (JSON); the kind's parseData decides whether it is still usable. */
  data: unknown;
}

/** What changes with a job's state; omitted fields are left as they are. */
export interface JobUpdate {
  state?: JobState;
  attempt?: number;
  progress?: JobProgress | null;
  error?: WorkbenchError | null;
  result?: unknown;
  data?: unknown;
  /** The outage being waited out (migration 0012); null once the service answers again. */
  wait?: JobWait | null;
}

export interface JobRow {
  id: string;
  kind: string;
  state: string;
  attempt: number;
  created_at: number;
  updated_at: number;
  run_id: string | null;
  progress: string | null;
  progress_json: string | null;
  error_json: string | null;
  result_json: string | null;
  data_json: string;
  wait_json: string | null;
}

export const SUMMARY_COLUMNS = 'id, kind, state, attempt, created_at, updated_at, run_id, progress, progress_json, error_json, wait_json';
const UNFINISHED = UNFINISHED_JOB_STATES.map((s) => `'${s}'`).join(', ');

const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

export function toSummary(row: Omit<JobRow, 'data_json' | 'result_json'>): JobSummary {
  return {
    id: row.id,
    kind: row.kind,
    state: row.state as JobState,
    attempt: row.attempt,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    runId: row.run_id,
    progress: row.progress === null ? null : { stage: row.progress, detail: parse(row.progress_json) },
    error: parse(row.error_json) as WorkbenchError | null,
    wait: parse(row.wait_json) as JobWait | null,
  };
}

function addEvent(db: Db, jobId: string, at: number, state: string, detail: unknown): void {
  prepare(db, 'INSERT INTO job_events (job_id, at, state, detail_json) VALUES (?, ?, ?, ?)').run(
    jobId,
    at,
    state,
    detail === undefined || detail === null ? null : JSON.stringify(detail),
  );
}

/**
 * Writes a `queued` job and its first history entry, after running `insert` (the caller's own
 * record) in the same transaction: if either fails, neither is kept.
 */
export function insertJob(db: Db, job: NewJob, insert?: (db: Db) => void): void {
  timed(db, 'insertJob', () =>
    db.transaction(() => {
      insert?.(db);
      prepare(
        db,
        `INSERT INTO jobs (id, kind, state, attempt, created_at, updated_at, run_id, data_json)
         VALUES (?, ?, 'queued', 0, ?, ?, ?, ?)`,
      ).run(job.id, job.kind, job.createdAt, job.createdAt, job.runId ?? null, JSON.stringify(job.data ?? null));
      addEvent(db, job.id, job.createdAt, 'queued', null);
    })(),
  );
}

/**
 * Applies `update` to job `id`; when `event` is given, appends it to the state history in the
 * same transaction (with `also`, the caller's write that belongs with this change). Returns
 * false when there is no such job.
 */
export function updateJob(
  db: Db,
  id: string,
  update: JobUpdate,
  now: number,
  event?: { state: string; detail?: unknown },
  also?: (db: Db) => void,
): boolean {
  const sets = ['updated_at = @now'];
  const params: Record<string, unknown> = { id, now };
  const set = (column: string, value: unknown): void => {
    sets.push(`${column} = @${column}`);
    params[column] = value;
  };
  if (update.state !== undefined) set('state', update.state);
  if (update.attempt !== undefined) set('attempt', update.attempt);
  if (update.progress !== undefined) {
    set('progress', update.progress?.stage ?? null);
    set('progress_json', update.progress ? JSON.stringify(update.progress.detail ?? null) : null);
  }
  if (update.error !== undefined) set('error_json', update.error === null ? null : JSON.stringify(update.error));
  if (update.result !== undefined) set('result_json', JSON.stringify(update.result));
  if (update.data !== undefined) set('data_json', JSON.stringify(update.data));
  if (update.wait !== undefined) set('wait_json', update.wait === null ? null : JSON.stringify(update.wait));
  const sql = `UPDATE jobs SET ${sets.join(', ')} WHERE id = @id`;
  return timed(db, 'updateJob', () =>
    db.transaction(() => {
      const changed = prepare(db, sql).run(params).changes > 0;
      if (!changed) return false;
      if (event) addEvent(db, id, now, event.state, event.detail);
      also?.(db);
      return true;
    })(),
  );
}

/** Job `id` with its data, or null. */
export function getStoredJob(db: Db, id: string): StoredJob | null {
  const row = prepare<[string], JobRow>(db, `SELECT ${SUMMARY_COLUMNS}, data_json, result_json FROM jobs WHERE id = ?`).get(id);
  return row ? { ...toSummary(row), data: parse(row.data_json) } : null;
}

/** The summary of job `id`, or null. */
export function getJobSummary(db: Db, id: string): JobSummary | null {
  const row = prepare<[string], JobRow>(db, `SELECT ${SUMMARY_COLUMNS} FROM jobs WHERE id = ?`).get(id);
  return row ? toSummary(row) : null;
}

/** The whole record of job `id` (result and state history), or null. */
export function getJobRecord(db: Db, id: string): JobRecord | null {
  const row = prepare<[string], JobRow>(db, `SELECT ${SUMMARY_COLUMNS}, result_json FROM jobs WHERE id = ?`).get(id);
  if (!row) return null;
  const events = prepare<[string], { at: number; state: string; detail_json: string | null }>(
    db,
    'SELECT at, state, detail_json FROM job_events WHERE job_id = ? ORDER BY seq',
  )
    .all(id)
    .map((e): JobEvent => ({ at: e.at, state: e.state, detail: parse(e.detail_json) }));
  return { ...toSummary(row), result: parse(row.result_json), events };
}

/** Newest first; `active` keeps only unfinished jobs. */
export function listJobs(db: Db, options: { active?: boolean; kind?: string; limit?: number } = {}): JobSummary[] {
  const where: string[] = [];
  const params: Record<string, unknown> = { limit: options.limit ?? 50 };
  if (options.active) where.push(`state IN (${UNFINISHED})`);
  if (options.kind) {
    where.push('kind = @kind');
    params.kind = options.kind;
  }
  const sql = `SELECT ${SUMMARY_COLUMNS} FROM jobs ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY created_at DESC, id DESC LIMIT @limit`;
  return timed(db, 'listJobs', () => prepare<[Record<string, unknown>], JobRow>(db, sql).all(params).map(toSummary));
}

/** Every unfinished job with its data, oldest first: what a start-up resumes. */
export function unfinishedJobs(db: Db): StoredJob[] {
  const rows = timed(db, 'unfinishedJobs', () =>
    prepare<[], JobRow>(db, `SELECT ${SUMMARY_COLUMNS}, data_json, result_json FROM jobs WHERE state IN (${UNFINISHED}) ORDER BY created_at, id`).all(),
  );
  return rows.map((row) => ({ ...toSummary(row), data: parse(row.data_json) }));
}

/** The unfinished job carrying run `runId`, if any. */
export function activeJobForRun(db: Db, runId: string): JobSummary | null {
  const row = prepare<[string], JobRow>(db, `SELECT ${SUMMARY_COLUMNS} FROM jobs WHERE run_id = ? AND state IN (${UNFINISHED}) ORDER BY created_at DESC LIMIT 1`).get(runId);
  return row ? toSummary(row) : null;
}
