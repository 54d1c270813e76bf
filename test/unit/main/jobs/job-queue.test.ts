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
      sleep: async (ms) => void sleeps.push(ms),
      backoff: { firstMs: 100, maxMs: 1000, maxRetryAfterMs: 5000 },
      ...overrides,
    });
    q.subscribe((job) => changes.push(job));
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

  describe('subscribe()', () => {
    it('tells a kind subscriber only of its kind, an all-kinds subscriber of every kind, until unsubscribed', async () => {
      const q = queue();
      q.define(scripted([async () => 'x']).handler);
      q.define({ ...scripted([async () => 'y']).handler, kind: 'other' });
      const ofTest: string[] = [];
      const ofOther: string[] = [];
      const all: string[] = [];
      q.subscribe((job) => ofTest.push(`${job.id}:${job.state}`), { kind: 'test' });
      const stopOther = q.subscribe((job) => ofOther.push(`${job.id}:${job.state}`), { kind: 'other' });
      q.subscribe((job) => all.push(job.kind));
      insertRun(db, newRun('r1', 1, 'a'));
      insertRun(db, newRun('r2', 2, 'b'));
      q.add<Data>('test', { runId: 'r1' }, { id: 'job-t', runId: 'r1' });
      q.add<Data>('other', { runId: 'r2' }, { id: 'job-o', runId: 'r2' });
      await settled(q, 'job-t');
      await settled(q, 'job-o');
      expect(ofTest.length).toBeGreaterThan(0);
      expect(ofTest.every((c) => c.startsWith('job-t:'))).toBe(true);
      expect(ofTest.at(-1)).toBe('job-t:completed');
      expect(ofOther.every((c) => c.startsWith('job-o:'))).toBe(true);
      expect(ofOther.at(-1)).toBe('job-o:completed');
      expect(new Set(all)).toEqual(new Set(['test', 'other']));
      expect(all.length).toBe(ofTest.length + ofOther.length);
      stopOther();
      const before = ofOther.length;
      insertRun(db, newRun('r3', 3, 'c'));
      q.add<Data>('other', { runId: 'r3' }, { id: 'job-o2', runId: 'r3' });
      await settled(q, 'job-o2');
      expect(ofOther.length).toBe(before);
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
        { attempt: 1, failures: 1, delayMs: 100, message: 'connection reset' },
        { attempt: 2, failures: 2, delayMs: 200, message: 'connection reset' },
        { attempt: 3, failures: 3, delayMs: 400, message: 'connection reset' },
      ]);
    });

    it('honours a retry-after hint (never sooner than the backoff, beyond its cap up to maxRetryAfterMs) and keeps waiting', async () => {
      const q = queue();
      const slowDown = (ms: number) => async () => {
        throw new RetryableJobError({ code: 'api_error', status: 429, message: 'slow down' }, ms);
      };
      const { handler, outcomes } = scripted([slowDown(30), slowDown(3000), slowDown(99_000), slowDown(30), slowDown(30), async () => 'ok']);
      q.define(handler);
      const job = q.add<Data>('test', { runId: 'r1' }, { insert: (d) => insertRun(d, newRun('r1', 1, 'a')), runId: 'r1' });
      await settled(q, job.id);
      expect(sleeps).toEqual([100, 3000, 5000, 800, 1000]);
      expect(q.summary(job.id)).toMatchObject({ state: 'completed', attempt: 6, error: null, wait: null });
      expect(outcomes).toEqual([{ state: 'completed', result: 'ok' }]);
      expect(getRun(db, 'r1')?.status).toBe('completed');
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

  describe('outages', () => {
    const unreachable = async (): Promise<string> => {
      throw new RetryableJobError({ code: 'network', message: 'connect ECONNREFUSED 127.0.0.1:9' });
    };
    /** A clock the queue's waits move: each sleep advances it by what was asked. */
    const clocked = (start = 1_000_000) => {
      const clock = { now: start };
      return { clock, options: { now: () => clock.now, sleep: async (ms: number) => void (sleeps.push(ms), (clock.now += ms)) } };
    };

    it('waits out an outage of any length (200 failures in a row) with a capped backoff, then completes', async () => {
      const { options } = clocked();
      const q = queue(options);
      const { handler, seen, outcomes } = scripted([...Array.from({ length: 200 }, () => unreachable), async () => 'made it']);
      q.define(handler);
      const job = q.add<Data>('test', { runId: 'r1' }, { insert: (d) => insertRun(d, newRun('r1', 1, 'a')), runId: 'r1' });
      await settled(q, job.id);
      expect(seen).toHaveLength(201);
      // Doubling from 100 ms, then never more than the 1 s cap, however long it lasts.
      expect(sleeps.slice(0, 6)).toEqual([100, 200, 400, 800, 1000, 1000]);
      expect(Math.max(...sleeps)).toBe(1000);
      expect(sleeps).toHaveLength(200);
      expect(outcomes).toEqual([{ state: 'completed', result: 'made it' }]);
      expect(q.summary(job.id)).toMatchObject({ state: 'completed', attempt: 201, error: null, wait: null });
    });

    it('says it is waiting, why, since when and until when; the reason stays through the next attempt until the service answers', async () => {
      const { clock, options } = clocked(5_000);
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const q = queue(options);
      const { handler } = scripted([
        unreachable,
        unreachable,
        async (ctx) => {
          await gate;
          ctx.answered();
          ctx.progress('pending', { polls: 1 });
          return 'ok';
        },
      ]);
      q.define(handler);
      const job = q.add<Data>('test', { runId: 'r1' }, { insert: (d) => insertRun(d, newRun('r1', 1, 'a')), runId: 'r1' });
      // The third attempt is under way: still waiting (its reason kept), no next attempt time.
      await expect.poll(() => q.summary(job.id)?.attempt).toBe(3);
      expect(q.summary(job.id)).toMatchObject({
        state: 'running',
        error: { code: 'network' },
        wait: { since: 5_000, failures: 2, nextAttemptAt: null, reason: expect.stringMatching(/cannot reach the service/) },
      });
      const waiting = changes.filter((c) => c.state === 'retrying').map((c) => c.wait);
      expect(waiting).toEqual([
        { since: 5_000, failures: 1, nextAttemptAt: 5_100, reason: expect.any(String) },
        { since: 5_000, failures: 2, nextAttemptAt: 5_300, reason: expect.any(String) },
      ]);
      expect(clock.now).toBe(5_300);
      release();
      await settled(q, job.id);
      const record = getJobRecord(db, job.id)!;
      expect(record.events.map((e) => e.state)).toEqual(['queued', 'running', 'retrying', 'running', 'retrying', 'running', 'answered', 'pending', 'completed']);
      expect(record.events.find((e) => e.state === 'answered')?.detail).toEqual({ failures: 2, waitedMs: 300 });
      // Once the service answered, the job no longer says it waits.
      const afterAnswer = changes.slice(changes.findIndex((c) => c.state === 'running' && c.attempt === 3 && c.wait === null));
      expect(afterAnswer.length).toBeGreaterThan(0);
      expect(afterAnswer.every((c) => c.wait === null && c.error === null)).toBe(true);
    });

    it('starts the backoff again from its first step after the service answered', async () => {
      const q = queue(clocked().options);
      const answerThenDrop = async (ctx: { answered(): void }): Promise<string> => {
        ctx.answered();
        throw new RetryableJobError({ code: 'network', message: 'socket hang up' });
      };
      q.define(scripted([unreachable, unreachable, unreachable, answerThenDrop, unreachable, async () => 'ok']).handler);
      const job = q.add<Data>('test', { runId: 'r1' });
      await settled(q, job.id);
      expect(sleeps).toEqual([100, 200, 400, 100, 200]);
    });

    it('fails only on a definite answer, even after a long wait', async () => {
      const q = queue(clocked().options);
      const refused = async (): Promise<string> => Promise.reject(new JobFailedError({ code: 'api_error', status: 400, message: 'bad duration' }));
      const { handler, outcomes } = scripted([...Array.from({ length: 30 }, () => unreachable), refused]);
      q.define(handler);
      const job = q.add<Data>('test', { runId: 'r1' }, { insert: (d) => insertRun(d, newRun('r1', 1, 'a')), runId: 'r1' });
      await settled(q, job.id);
      expect(q.summary(job.id)).toMatchObject({ state: 'failed', attempt: 31, error: { status: 400 }, wait: null });
      expect(outcomes).toEqual([{ state: 'failed', error: { code: 'api_error', status: 400, message: 'bad duration' } }]);
    });

    it('scales every wait by backoffScale (fast outages for tests)', async () => {
      const q = queue({ ...clocked().options, backoffScale: 0.01 });
      q.define(scripted([unreachable, unreachable, unreachable, unreachable, unreachable, async () => 'ok']).handler);
      const job = q.add<Data>('test', { runId: 'r1' });
      await settled(q, job.id);
      expect(sleeps).toEqual([1, 2, 4, 8, 10]);
    });

    /** A sleep that lasts until aborted (a cancel, dispose or retryNow), as a long real wait would. */
    const blockingSleep = (started: number[]) => (ms: number, signal: AbortSignal) =>
      new Promise<void>((resolve) => {
        started.push(ms);
        if (signal.aborted) return resolve();
        signal.addEventListener('abort', () => resolve(), { once: true });
      });

    it('"Retry now" skips the wait; cancel stops a waiting job for good', async () => {
      const started: number[] = [];
      const q = queue({ sleep: blockingSleep(started) });
      const { handler, seen, outcomes } = scripted([unreachable]);
      q.define(handler);
      const job = q.add<Data>('test', { runId: 'r1' }, { insert: (d) => insertRun(d, newRun('r1', 1, 'a')), runId: 'r1' });
      await expect.poll(() => started.length).toBe(1);
      expect(q.summary(job.id)).toMatchObject({ state: 'retrying', wait: { failures: 1 } });
      expect(q.retryNow(job.id)).toMatchObject({ state: 'retrying' });
      await expect.poll(() => started.length).toBe(2);
      expect(seen).toHaveLength(2);
      expect(q.summary(job.id)).toMatchObject({ state: 'retrying', attempt: 2, wait: { failures: 2 } });
      expect(getJobRecord(db, job.id)!.events.filter((e) => e.state === 'retry-now')).toEqual([expect.objectContaining({ detail: { by: 'user' } })]);

      expect(q.cancel(job.id)).toMatchObject({ state: 'cancelled', wait: null });
      await expect.poll(() => q.isRunning(job.id)).toBe(false);
      expect(seen).toHaveLength(2);
      expect(outcomes).toEqual([{ state: 'cancelled' }]);
      expect(getRun(db, 'r1')?.status).toBe('cancelled');
      // Nothing to skip on a finished job, nothing at all on an unknown one.
      expect(q.retryNow(job.id)?.state).toBe('cancelled');
      expect(q.retryNow('nope')).toBeNull();
    });

    it('survives a restart while waiting: still waiting, the same count and next attempt time, then it carries on', async () => {
      const clock = { now: 50_000 };
      const started: number[] = [];
      const first = queue({ now: () => clock.now, sleep: blockingSleep(started) });
      first.define(scripted([unreachable]).handler);
      const job = first.add<Data>('test', { runId: 'r1' }, { insert: (d) => insertRun(d, newRun('r1', 1, 'a')), runId: 'r1' });
      await expect.poll(() => started.length).toBe(1);
      first.retryNow(job.id);
      await expect.poll(() => started.length).toBe(2);
      const waiting = first.summary(job.id)!;
      expect(waiting).toMatchObject({ state: 'retrying', attempt: 2, wait: { since: 50_000, failures: 2, nextAttemptAt: 50_200 } });
      await first.dispose();
      expect(first.summary(job.id)).toMatchObject({ state: 'retrying', wait: waiting.wait });

      // The app comes back 50 ms later: the job waits the 150 ms left, then tries; the count goes on.
      clock.now = 50_050;
      const second = queue({ now: () => clock.now, sleep: async (ms) => void (sleeps.push(ms), (clock.now += ms)) });
      const { handler, seen, outcomes } = scripted([unreachable, async () => 'back']);
      second.define(handler);
      expect(second.resumeAll()).toBe(1);
      await settled(second, job.id);
      expect(sleeps).toEqual([150, 400]);
      expect(seen.map((s) => s.attempt)).toEqual([3, 4]);
      expect(outcomes).toEqual([{ state: 'completed', result: 'back' }]);
      const retrying = getJobRecord(db, job.id)!.events.filter((e) => e.state === 'retrying').map((e) => (e.detail as { failures: number }).failures);
      expect(retrying).toEqual([1, 2, 3]);
    });

    it('tries at once after a restart whose wait is already over', async () => {
      const clock = { now: 10_000 };
      const started: number[] = [];
      const first = queue({ now: () => clock.now, sleep: blockingSleep(started) });
      first.define(scripted([unreachable]).handler);
      const job = first.add<Data>('test', { runId: 'r1' });
      await expect.poll(() => started.length).toBe(1);
      await first.dispose();
      clock.now = 60_000;
      const second = queue({ now: () => clock.now, sleep: async (ms) => void sleeps.push(ms) });
      const { handler, seen } = scripted([async () => 'ok']);
      second.define(handler);
      second.resumeAll();
      await settled(second, job.id);
      expect(sleeps).toEqual([]);
      expect(seen).toHaveLength(1);
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
