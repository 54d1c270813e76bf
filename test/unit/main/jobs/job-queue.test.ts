import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobSummary } from '../../../../shared/contract/jobs';
import { JobFailedError, JobQueue, RetryableJobError, type JobHandler, type JobOutcome } from '../../../../main/jobs/job-queue';
import { closeDatabase, openDatabase, type Db } from '../../../../main/store/db';
import { getJobRecord, getStoredJob } from '../../../../main/store/jobs';
import { getRun, insertRun, updateRun } from '../../../../main/store/runs';
import { newRun } from '../store/run-fixtures';

interface Data {
  runId: string;
  step?: string;
}

/** A kind whose run is scripted per attempt by the test. */
function scripted(attempts: Array<(ctx: Parameters<JobHandler<Data, string>['run']>[1]) => Promise<string>>) {
  const seen: Array<{ attempt: number; data: Data }> = [];
  const outcomes: Array<JobOutcome<string>> = [];
  const handler: JobHandler<Data, string> = {
    kind: 'test',
    parseData(data) {
      const d = data as Data;
      if (typeof d?.runId !== 'string') throw new Error('runId is missing');
      return d;
    },
    async run(job, ctx) {
      seen.push({ attempt: ctx.attempt, data: job.data });
      const next = attempts[Math.min(seen.length - 1, attempts.length - 1)];
      return next(ctx);
    },
    finish(db, job, outcome) {
      outcomes.push(outcome);
      updateRun(db, job.data.runId, { status: outcome.state === 'failed' ? 'error' : outcome.state, ...(outcome.state === 'completed' ? { outputText: outcome.result } : {}) });
    },
  };
  return { handler, seen, outcomes };
}

/** Resolves when the signal aborts (a job that waits to be stopped). */
const untilAborted = (signal: AbortSignal) => new Promise<string>((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));

describe('JobQueue', () => {
  let db: Db;
  let queues: JobQueue[];
  let changes: JobSummary[];
  const sleeps: number[] = [];
  const queue = (overrides: Partial<ConstructorParameters<typeof JobQueue>[0]> = {}): JobQueue => {
    const q = new JobQueue({
      db,
      onChange: (job) => changes.push(job),
      sleep: async (ms) => void sleeps.push(ms),
      backoff: { firstMs: 100, maxMs: 1000, maxAttempts: 4 },
      ...overrides,
    });
    queues.push(q);
    return q;
  };
  const settled = (q: JobQueue, id: string) => expect.poll(() => q.summary(id)?.state).toMatch(/completed|failed|cancelled/);

  beforeEach(() => {
    db = openDatabase(':memory:');
    queues = [];
    changes = [];
    sleeps.length = 0;
  });
  afterEach(async () => {
    for (const q of queues) await q.dispose();
    closeDatabase(db);
  });

  describe('add()', () => {
    it('writes the job and the caller record in one transaction, then runs it to the end', async () => {
      const q = queue();
      const { handler, outcomes } = scripted([async (ctx) => (ctx.progress('working', { n: 1 }), 'done')]);
      q.define(handler);
      const job = q.add<Data>('test', { runId: 'r1' }, { runId: 'r1', insert: (d) => insertRun(d, newRun('r1', 1, 'hello')) });
      // Nothing ran yet when add() returns: the row is there first.
      expect(job).toMatchObject({ state: 'queued', attempt: 0, runId: 'r1', kind: 'test' });
      expect(getRun(db, 'r1')?.status).toBe('pending');
      await settled(q, job.id);
      expect(getRun(db, 'r1')).toMatchObject({ status: 'completed' });
      expect(outcomes).toEqual([{ state: 'completed', result: 'done' }]);
      expect(getJobRecord(db, job.id)).toMatchObject({
        state: 'completed',
        attempt: 1,
        result: 'done',
        progress: { stage: 'working', detail: { n: 1 } },
        events: [
          { state: 'queued', detail: null },
          { state: 'running', detail: { attempt: 1 } },
          { state: 'working', detail: { n: 1 } },
          { state: 'completed', detail: null },
        ],
      });
      expect(changes.map((c) => c.state)).toEqual(['queued', 'running', 'running', 'completed']);
    });

    it('keeps neither the job nor the record when the caller insert fails', () => {
      const q = queue();
      q.define(scripted([async () => 'x']).handler);
      insertRun(db, newRun('taken', 1, 'a'));
      expect(() => q.add<Data>('test', { runId: 'taken' }, { id: 'job-x', runId: 'taken', insert: (d) => insertRun(d, newRun('taken', 2, 'b')) })).toThrow(/UNIQUE/);
      expect(getStoredJob(db, 'job-x')).toBeNull();
      expect(db.prepare('SELECT COUNT(*) AS n FROM job_events').get()).toEqual({ n: 0 });
      expect(changes).toEqual([]);
    });

    it('rolls back the caller insert when the job row cannot be written', () => {
      const q = queue();
      q.define(scripted([async () => 'x']).handler);
      q.add<Data>('test', { runId: 'r1' }, { id: 'same', runId: 'r1', insert: (d) => insertRun(d, newRun('r1', 1, 'a')) });
      expect(() => q.add<Data>('test', { runId: 'r2' }, { id: 'same', runId: 'r2', insert: (d) => insertRun(d, newRun('r2', 2, 'b')) })).toThrow();
      expect(getRun(db, 'r2')).toBeNull();
    });

    it('refuses data its kind cannot parse, before writing anything', () => {
      const q = queue();
      q.define(scripted([async () => 'x']).handler);
      expect(() => q.add('test', { nope: 1 }, { insert: (d) => insertRun(d, newRun('r1', 1, 'a')) })).toThrow(/runId is missing/);
      expect(getRun(db, 'r1')).toBeNull();
    });
  });

  describe('retries', () => {
    it('backs off after transient failures (doubling, capped) and then succeeds, counting attempts', async () => {
      const q = queue();
      const fail = async () => {
        throw new RetryableJobError({ code: 'network', message: 'connection reset' });
      };
      const { handler, seen } = scripted([fail, fail, fail, async () => 'ok']);
      q.define(handler);
      const job = q.add<Data>('test', { runId: 'r1' }, { insert: (d) => insertRun(d, newRun('r1', 1, 'a')), runId: 'r1' });
      await settled(q, job.id);
      expect(seen.map((s) => s.attempt)).toEqual([1, 2, 3, 4]);
      expect(sleeps).toEqual([100, 200, 400]);
      const record = getJobRecord(db, job.id)!;
      expect(record).toMatchObject({ state: 'completed', attempt: 4, error: null });
      expect(record.events.filter((e) => e.state === 'retrying').map((e) => e.detail)).toEqual([
        { attempt: 1, delayMs: 100, message: 'connection reset' },
        { attempt: 2, delayMs: 200, message: 'connection reset' },
        { attempt: 3, delayMs: 400, message: 'connection reset' },
      ]);
    });

    it('honours a retry-after hint and gives up after maxAttempts with the last error', async () => {
      const q = queue();
      const { handler, outcomes } = scripted([
        async () => {
          throw new RetryableJobError({ code: 'api_error', status: 429, message: 'slow down' }, 30);
        },
      ]);
      q.define(handler);
      const job = q.add<Data>('test', { runId: 'r1' }, { insert: (d) => insertRun(d, newRun('r1', 1, 'a')), runId: 'r1' });
      await settled(q, job.id);
      expect(sleeps).toEqual([30, 30, 30]);
      expect(q.summary(job.id)).toMatchObject({ state: 'failed', attempt: 4, error: { code: 'api_error', message: 'slow down' } });
      expect(outcomes).toEqual([{ state: 'failed', error: { code: 'api_error', status: 429, message: 'slow down' } }]);
      expect(getRun(db, 'r1')?.status).toBe('error');
    });

    it('fails at once on a final error, and records a crash as internal', async () => {
      const q = queue();
      q.define(scripted([async () => Promise.reject(new JobFailedError({ code: 'not_found', message: 'gone' }))]).handler);
      const a = q.add<Data>('test', { runId: 'r1' }, { insert: (d) => insertRun(d, newRun('r1', 1, 'a')), runId: 'r1' });
      await settled(q, a.id);
      expect(q.summary(a.id)).toMatchObject({ state: 'failed', attempt: 1, error: { code: 'not_found' } });
      expect(sleeps).toEqual([]);
    });
  });

  describe('save()', () => {
    it('merges into the stored data at once, with the caller write in the same transaction', async () => {
      const q = queue();
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      q.define(
        scripted([
          async (ctx) => {
            ctx.save({ step: 'created' }, (d) => updateRun(d, 'r1', { deferredRequestId: 'req-1' }));
            await gate;
            return 'ok';
          },
        ]).handler,
      );
      const job = q.add<Data>('test', { runId: 'r1' }, { insert: (d) => insertRun(d, newRun('r1', 1, 'a')), runId: 'r1' });
      await expect.poll(() => (getStoredJob(db, job.id)?.data as Data).step).toBe('created');
      expect(getRun(db, 'r1')?.deferredRequestId).toBe('req-1');
      release();
      await settled(q, job.id);
    });
  });

  describe('resumeAll() and dispose()', () => {
    it('dispose aborts running work without failing it; the next queue resumes it with what was saved', async () => {
      const first = queue();
      first.define(
        scripted([
          async (ctx) => {
            ctx.save({ step: 'created' });
            return untilAborted(ctx.signal);
          },
        ]).handler,
      );
      const job = first.add<Data>('test', { runId: 'r1' }, { insert: (d) => insertRun(d, newRun('r1', 1, 'a')), runId: 'r1' });
      await expect.poll(() => (getStoredJob(db, job.id)?.data as Data).step).toBe('created');
      await first.dispose();
      expect(first.summary(job.id)).toMatchObject({ state: 'running', attempt: 1, error: null });
      expect(getRun(db, 'r1')?.status).toBe('pending');
      expect(() => first.add<Data>('test', { runId: 'r2' })).toThrow(/shut down/);

      const second = queue();
      const { handler, seen } = scripted([async () => 'finished after restart']);
      second.define(handler);
      expect(second.resumeAll()).toBe(1);
      await settled(second, job.id);
      expect(seen).toEqual([{ attempt: 2, data: { runId: 'r1', step: 'created' } }]);
      expect(getRun(db, 'r1')?.status).toBe('completed');
      expect(getJobRecord(db, job.id)!.events.map((e) => e.state)).toEqual(['queued', 'running', 'running', 'completed']);
      expect(second.resumeAll()).toBe(0);
    });

    it('fails a resumed job whose stored data no longer parses, without running it', async () => {
      const q = queue();
      q.define(scripted([async () => 'x']).handler);
      db.prepare(`INSERT INTO jobs (id, kind, state, attempt, created_at, updated_at, data_json) VALUES ('old', 'test', 'running', 1, 1, 1, '{"other":1}')`).run();
      db.prepare(`INSERT INTO jobs (id, kind, state, attempt, created_at, updated_at, data_json) VALUES ('alien', 'unknown-kind', 'queued', 0, 1, 1, '{}')`).run();
      expect(q.resumeAll()).toBe(1);
      await settled(q, 'old');
      expect(q.summary('old')).toMatchObject({ state: 'failed', error: { code: 'internal', message: expect.stringMatching(/can no longer be read: runId is missing/) } });
      expect(q.summary('alien')?.state).toBe('queued');
    });
  });

  describe('cancel()', () => {
    it('marks the job and its record cancelled in one step and stops the running attempt for good', async () => {
      const q = queue();
      let aborted = false;
      const { handler, outcomes } = scripted([
        async (ctx) => {
          ctx.progress('waiting');
          await untilAborted(ctx.signal).catch(() => (aborted = true));
          return 'late result';
        },
      ]);
      q.define(handler);
      const job = q.add<Data>('test', { runId: 'r1' }, { insert: (d) => insertRun(d, newRun('r1', 1, 'a')), runId: 'r1' });
      const seen: string[] = [];
      q.watch(job.id, (j) => seen.push(j.state));
      await expect.poll(() => q.summary(job.id)?.progress?.stage).toBe('waiting');
      expect(q.cancel(job.id)).toMatchObject({ state: 'cancelled' });
      expect(getRun(db, 'r1')?.status).toBe('cancelled');
      await expect.poll(() => aborted).toBe(true);
      await expect.poll(() => q.isRunning(job.id)).toBe(false);
      // The attempt's late result does not undo the cancel.
      expect(q.summary(job.id)?.state).toBe('cancelled');
      expect(outcomes).toEqual([{ state: 'cancelled' }]);
      expect(seen.at(-1)).toBe('cancelled');
      expect(getJobRecord(db, job.id)!.events.at(-1)).toMatchObject({ state: 'cancelled', detail: { by: 'user' } });
      // A finished job is left as it is; an unknown one is null.
      expect(q.cancel(job.id)?.state).toBe('cancelled');
      expect(q.cancel('nope')).toBeNull();
    });
  });

  describe('list()', () => {
    it('lists newest first, and only unfinished ones with active', async () => {
      let now = 10;
      const q = queue({ now: () => now++ });
      q.define(scripted([async () => 'ok']).handler);
      const a = q.add<Data>('test', { runId: 'r1' });
      await settled(q, a.id);
      const q2 = queue({ now: () => now++ });
      q2.define({ ...scripted([]).handler, run: (_job, ctx) => untilAborted(ctx.signal) });
      const b = q2.add<Data>('test', { runId: 'r2' });
      expect(q.list().map((j) => j.id)).toEqual([b.id, a.id]);
      expect(q.list({ active: true }).map((j) => j.id)).toEqual([b.id]);
    });
  });
});
