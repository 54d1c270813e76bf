/**
 * The durable job queue (after Signal-Desktop's JobQueue): a job is written to SQLite before its
 * first request leaves — together with the caller's own record, in one transaction — then runs
 * in main, whatever happens to windows. Each kind says how to read its stored data (`parseData`)
 * and how to run it (`run(job, ctx)`); the queue keeps the state history, waits out transient
 * failures for as long as they last (a capped backoff, kept in the row as the job's `wait` so a
 * restart carries on with it), resumes unfinished jobs at start-up, and tells subscribers of every
 * change (all kinds, or one kind: `subscribe(listener, { kind })`). Only a definite failure ends a job, or the user (cancel); `retryNow` skips a wait.
 *
 *   const chat = queue.define({ kind: 'deferred-chat', parseData, run, finish });
 *   const job = queue.add('deferred-chat', data, { runId, insert: (db) => insertRun(db, run) });
 *
 * dispose() aborts running work without marking it failed: it is resumed at the next start.
 */
import { randomUUID } from 'node:crypto';
import type { WorkbenchError } from '../../shared/contract/errors';
import type { JobRecord, JobSummary, JobWait } from '../../shared/contract/jobs';
import type { Db } from '../store/db';
import { getJobRecord, getJobSummary, getStoredJob, insertJob, listJobs, unfinishedJobs, updateJob, type StoredJob } from '../store/jobs';
import { sleep } from '../api/sleep';
import { backoffDelayMs, isRetryable, toJobError, waitReasonOf, type BackoffPolicy } from './job-errors';

export { RetryableJobError, JobFailedError, jobFailureOf } from './job-errors';
export type { BackoffPolicy } from './job-errors';

/** One job as its kind's `run` sees it: the stored row with data parsed by `parseData`. */
export interface Job<D> {
  readonly id: string;
  readonly kind: string;
  readonly runId: string | null;
  readonly createdAt: number;
  /** The data as last saved (ctx.save merges into it). */
  readonly data: D;
}

/** What `run` gets besides the job. */
export interface JobContext<D> {
  /** 1 on the first attempt; it grows across retries and restarts. */
  readonly attempt: number;
  /** Aborted by a user cancel or by dispose (the job is then resumed at the next start). */
  readonly signal: AbortSignal;
  log(line: string): void;
  /** Where the job is inside its work; a new stage is kept in the state history. */
  progress(stage: string, detail?: unknown): void;
  /**
   * Merges `partial` into the stored data at once (e.g. the id the service gave), with `also`
   * (the caller's own write that belongs with it) in the same transaction.
   */
  save(partial: Partial<D>, also?: (db: Db) => void): void;
  /**
   * The service answered this attempt (whatever it said): an outage the job was waiting out is
   * over, and the next transient failure starts the backoff from its first step again.
   */
  answered(): void;
}

/** How a job ended, handed to its kind's `finish` inside the transaction that records it. */
export type JobOutcome<R> = { state: 'completed'; result: R } | { state: 'failed'; error: WorkbenchError } | { state: 'cancelled' };

/** One kind of job. */
export interface JobHandler<D, R = unknown> {
  kind: string;
  /** Refuses stored data that no longer parses (throw): the job is then failed, never run. */
  parseData(data: unknown): D;
  run(job: Job<D>, ctx: JobContext<D>): Promise<R>;
  /** Records the end in the caller's own tables (the run), in the same transaction as the job's end. */
  finish?(db: Db, job: Job<D>, outcome: JobOutcome<R>): void;
  /** What is kept as the job's result (default: the whole value `run` returned). */
  resultOf?(result: R): unknown;
  /** Waits between attempts while transient failures last (default: the queue's). */
  backoff?: Partial<BackoffPolicy>;
}

export interface JobQueueOptions {
  db: Db;
  log?: (line: string) => void;
  now?: () => number;
  backoff?: Partial<BackoffPolicy>;
  /** Waits between retries (tests pass a fake); must resolve early when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /**
   * Multiplies every wait between attempts (default 1). Tests only: the e2e test waits out a
   * ten-minute outage in seconds (the app reads WORKBENCH_JOB_BACKOFF_SCALE).
   */
  backoffScale?: number;
}

const DEFAULT_BACKOFF: BackoffPolicy = { firstMs: 1000, maxMs: 30_000, maxRetryAfterMs: 3_600_000 };

interface Running {
  controller: AbortController;
  task: Promise<void>;
  /** Set while the job waits between attempts: aborting it starts the next attempt now. */
  wake?: AbortController;
}

type AnyHandler = JobHandler<unknown, unknown>;

export class JobQueue {
  private readonly handlers = new Map<string, AnyHandler>();
  private readonly running = new Map<string, Running>();
  private readonly watchers = new Map<string, Set<(job: JobSummary) => void>>();
  /** Subscribers by kind; '' holds those of every kind. */
  private readonly subscribers = new Map<string, Set<(job: JobSummary) => void>>();
  private readonly now: () => number;
  private readonly log: (line: string) => void;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  private disposed = false;

  constructor(private readonly options: JobQueueOptions) {
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => undefined);
    this.sleep = options.sleep ?? sleep;
  }

  /** Registers a kind. Define every kind before resumeAll(). */
  define<D, R>(handler: JobHandler<D, R>): void {
    if (this.handlers.has(handler.kind)) throw new Error(`job kind ${handler.kind} is defined twice`);
    this.handlers.set(handler.kind, handler as unknown as AnyHandler);
  }

  /**
   * Writes a new job (and, in the same transaction, the caller's `insert`), then starts it.
   * Nothing of the job has left the process when this returns: the row exists first.
   */
  add<D>(kind: string, data: D, options: { id?: string; runId?: string; insert?: (db: Db) => void } = {}): JobSummary {
    const handler = this.handlerOf(kind);
    handler.parseData(data);
    if (this.disposed) throw new Error('the job queue is shut down');
    const id = options.id ?? newJobId();
    insertJob(this.options.db, { id, kind, data, runId: options.runId ?? null, createdAt: this.now() }, options.insert);
    const summary = this.changed(id);
    this.start(getStoredJob(this.options.db, id)!);
    return summary;
  }

  /** Starts every unfinished job a previous run of the app left (or that dispose interrupted). Returns how many. */
  resumeAll(): number {
    let resumed = 0;
    for (const stored of unfinishedJobs(this.options.db)) {
      if (this.running.has(stored.id)) continue;
      if (!this.handlers.has(stored.kind)) {
        this.log(`jobs: ${stored.id} is of unknown kind ${stored.kind}; left as it is`);
        continue;
      }
      this.start(stored);
      resumed += 1;
    }
    return resumed;
  }

  get(id: string): JobRecord | null {
    return getJobRecord(this.options.db, id);
  }

  summary(id: string): JobSummary | null {
    return getJobSummary(this.options.db, id);
  }

  list(options: { active?: boolean; kind?: string; limit?: number } = {}): JobSummary[] {
    return listJobs(this.options.db, options);
  }

  /**
   * A user cancel: the job becomes `cancelled` and its kind's `finish` records that, in one
   * transaction; then its running attempt is aborted. A finished job is returned unchanged.
   */
  cancel(id: string): JobSummary | null {
    const stored = getStoredJob(this.options.db, id);
    if (!stored) return null;
    if (isFinished(stored)) return stored;
    const handler = this.handlers.get(stored.kind);
    const job = handler ? this.jobOf(stored, handler) : null;
    updateJob(this.options.db, id, { state: 'cancelled', wait: null }, this.now(), { state: 'cancelled', detail: { by: 'user' } }, (db) => {
      if (job && handler?.finish) handler.finish(db, job, { state: 'cancelled' });
    });
    this.running.get(id)?.controller.abort();
    return this.changed(id);
  }

  /**
   * The user's "Retry now": a job waiting between attempts starts its next one at once. Any other
   * job (running, finished, not run by this process) is returned unchanged; null when unknown.
   */
  retryNow(id: string): JobSummary | null {
    const summary = getJobSummary(this.options.db, id);
    if (!summary) return null;
    const wake = this.running.get(id)?.wake;
    if (!wake || isFinished(summary)) return summary;
    this.log(`jobs: ${id}: retry now (asked by the user)`);
    updateJob(this.options.db, id, {}, this.now(), { state: 'retry-now', detail: { by: 'user' } });
    wake.abort();
    return this.changed(id);
  }

  /**
   * Calls `listener` with every change (state or progress) of every job, or of jobs of `kind`
   * only, until the returned function is called. A family subscribes to its own kinds (Videos
   * reports its jobs to the page); the app to all (`jobs.changed`). Subscribing before or after
   * `define` is the same: changes only happen once jobs are added or resumed.
   */
  subscribe(listener: (job: JobSummary) => void, options: { kind?: string } = {}): () => void {
    const key = options.kind ?? '';
    let set = this.subscribers.get(key);
    if (!set) this.subscribers.set(key, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.subscribers.get(key) === set) this.subscribers.delete(key);
    };
  }

  /** Calls `listener` with every change of job `id` until the returned function is called. */
  watch(id: string, listener: (job: JobSummary) => void): () => void {
    let set = this.watchers.get(id);
    if (!set) this.watchers.set(id, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.watchers.get(id) === set) this.watchers.delete(id);
    };
  }

  /** Whether an attempt of job `id` is under way in this process. */
  isRunning(id: string): boolean {
    return this.running.has(id);
  }

  /** Aborts running attempts and waits for them; their rows stay unfinished, to be resumed. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const running = [...this.running.values()];
    for (const r of running) r.controller.abort();
    await Promise.allSettled(running.map((r) => r.task));
    this.watchers.clear();
  }

  private handlerOf(kind: string): AnyHandler {
    const handler = this.handlers.get(kind);
    if (!handler) throw new Error(`unknown job kind ${kind}`);
    return handler;
  }

  private jobOf(stored: StoredJob, handler: AnyHandler): Job<unknown> {
    return { id: stored.id, kind: stored.kind, runId: stored.runId, createdAt: stored.createdAt, data: handler.parseData(stored.data) };
  }

  private start(stored: StoredJob): void {
    const controller = new AbortController();
    const task = this.drive(stored, controller.signal).finally(() => {
      if (this.running.get(stored.id)?.task === task) this.running.delete(stored.id);
    });
    this.running.set(stored.id, { controller, task });
  }

  /**
   * Runs attempts until the job ends, is cancelled, or the queue is disposed. A transient failure
   * never ends it: the job waits (its `wait` says since when, why and until when) and tries again.
   */
  private async drive(stored: StoredJob, signal: AbortSignal): Promise<void> {
    const handler = this.handlerOf(stored.kind);
    let job: Job<unknown>;
    try {
      job = this.jobOf(stored, handler);
    } catch (error) {
      this.end(stored.id, null, handler, { state: 'failed', error: { code: 'internal', message: `The stored job can no longer be read: ${(error as Error).message}` } });
      return;
    }
    const policy = { ...DEFAULT_BACKOFF, ...this.options.backoff, ...handler.backoff };
    const scale = this.options.backoffScale ?? 1;
    let attempt = stored.attempt;
    // The outage a previous process was waiting out goes on: same count, same next attempt.
    const outage = { wait: stored.wait };
    await Promise.resolve();
    const due = outage.wait?.nextAttemptAt ?? null;
    if (due !== null && due > this.now()) await this.pause(job.id, due - this.now(), signal);
    for (;;) {
      await Promise.resolve();
      if (signal.aborted) return;
      attempt += 1;
      // While an outage lasts the job keeps its reason (`error`) until the service answers.
      if (outage.wait) outage.wait = { ...outage.wait, nextAttemptAt: null };
      this.write(job.id, { state: 'running', attempt, ...(outage.wait ? { wait: outage.wait } : { error: null }) }, { state: 'running', detail: { attempt } });
      let result: unknown;
      try {
        result = await handler.run(job, this.contextFor(job, handler, attempt, signal, (next) => (job = next), outage));
      } catch (error) {
        if (signal.aborted || !this.unfinished(job.id)) return;
        const failure = toJobError(error);
        if (isRetryable(error)) {
          const failures = (outage.wait?.failures ?? 0) + 1;
          const delayMs = Math.round(backoffDelayMs(failures, policy, error) * scale);
          const now = this.now();
          outage.wait = { since: outage.wait?.since ?? now, failures, reason: waitReasonOf(failure), nextAttemptAt: now + delayMs };
          this.log(`jobs: ${job.id} attempt ${attempt} failed (${failure.message}); ${failures} in a row; trying again in ${delayMs} ms`);
          this.write(job.id, { state: 'retrying', error: failure, wait: outage.wait }, { state: 'retrying', detail: { attempt, failures, delayMs, message: failure.message } });
          await this.pause(job.id, delayMs, signal);
          continue;
        }
        this.end(job.id, job, handler, { state: 'failed', error: failure });
        return;
      }
      // A result that arrived is kept even if an abort raced it; a cancel that won is not undone.
      if (!this.unfinished(job.id)) return;
      this.end(job.id, job, handler, { state: 'completed', result });
      return;
    }
  }

  /** Waits `ms` between attempts; a cancel, dispose or retryNow ends the wait early. */
  private async pause(id: string, ms: number, signal: AbortSignal): Promise<void> {
    const running = this.running.get(id);
    const wake = new AbortController();
    if (running) running.wake = wake;
    try {
      await this.sleep(ms, AbortSignal.any([signal, wake.signal]));
    } finally {
      if (running?.wake === wake) running.wake = undefined;
    }
  }

  private contextFor(
    job: Job<unknown>,
    handler: AnyHandler,
    attempt: number,
    signal: AbortSignal,
    replace: (job: Job<unknown>) => void,
    outage: { wait: JobWait | null },
  ): JobContext<unknown> {
    let stage: string | null = null;
    return {
      attempt,
      signal,
      log: (line) => this.log(`jobs: ${job.id}: ${line}`),
      progress: (next, detail) => {
        if (signal.aborted) return;
        const isNew = next !== stage;
        stage = next;
        this.write(job.id, { progress: { stage: next, detail: detail ?? null } }, isNew ? { state: next, detail } : undefined);
      },
      save: (partial, also) => {
        if (signal.aborted) return;
        const data = { ...(job.data as object), ...(partial as object) };
        updateJob(this.options.db, job.id, { data }, this.now(), undefined, also);
        const next = { ...job, data: handler.parseData(data) };
        job = next;
        replace(next);
      },
      answered: () => {
        if (signal.aborted || !outage.wait) return;
        const { failures, since } = outage.wait;
        outage.wait = null;
        this.log(`jobs: ${job.id}: the service answers again (after ${failures} failed attempt(s))`);
        this.write(job.id, { wait: null, error: null }, { state: 'answered', detail: { failures, waitedMs: Math.max(0, this.now() - since) } });
      },
    };
  }

  private end(id: string, job: Job<unknown> | null, handler: AnyHandler, outcome: JobOutcome<unknown>): void {
    const update =
      outcome.state === 'completed'
        ? { state: 'completed' as const, result: handler.resultOf ? handler.resultOf(outcome.result) : (outcome.result ?? null), error: null, wait: null }
        : outcome.state === 'failed'
          ? { state: 'failed' as const, error: outcome.error, wait: null }
          : { state: 'cancelled' as const, wait: null };
    const detail = outcome.state === 'failed' ? { code: outcome.error.code, message: outcome.error.message } : null;
    this.write(id, update, { state: outcome.state, detail }, (db) => {
      if (job && handler.finish) handler.finish(db, job, outcome);
    });
  }

  private unfinished(id: string): boolean {
    const summary = getJobSummary(this.options.db, id);
    return summary !== null && !isFinished(summary);
  }

  private write(id: string, update: Parameters<typeof updateJob>[2], event?: { state: string; detail?: unknown }, also?: (db: Db) => void): void {
    updateJob(this.options.db, id, update, this.now(), event, also);
    this.changed(id);
  }

  private changed(id: string): JobSummary {
    const summary = getJobSummary(this.options.db, id);
    if (!summary) throw new Error(`job ${id} vanished`);
    const listeners = [...(this.subscribers.get('') ?? []), ...(this.subscribers.get(summary.kind) ?? []), ...(this.watchers.get(id) ?? [])];
    for (const listener of listeners) listener(summary);
    return summary;
  }
}

function isFinished(job: JobSummary): boolean {
  return job.state === 'completed' || job.state === 'failed' || job.state === 'cancelled';
}

/** A new job id (also the Idempotency-Key of the job's create request). */
export function newJobId(): string {
  return `job_${randomUUID().replace(/-/g, '')}`;
}
