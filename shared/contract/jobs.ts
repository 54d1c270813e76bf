/**
 * Durable jobs: work the user started that runs in main whatever happens to windows (deferred
 * chat today, video jobs next). The renderer lists and follows them, can cancel one, and hears
 * every change through `jobs.changed`; a window never owns a job.
 */
import { z } from 'zod';
import { call, event } from './define';
import type { WorkbenchError } from './errors';

/**
 * queued: written, not started yet; running: an attempt is under way; retrying: waiting out a
 * backoff after a transient failure (for as long as the outage lasts: see JobWait); then how it
 * ended. The first three are "unfinished" and are
 * resumed at the next start if the app stops meanwhile.
 */
export const JOB_STATES = ['queued', 'running', 'retrying', 'completed', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** States a job can still leave. */
export const UNFINISHED_JOB_STATES: readonly JobState[] = ['queued', 'running', 'retrying'];

/** Where a job is inside its own work (`creating`, `pending` with poll counts, ...), as it last said. */
export interface JobProgress {
  stage: string;
  detail: unknown;
}

/**
 * A job waiting out an outage: transient failures in a row (no network, 5xx, 429, a timeout). A
 * job never gives up on these; it waits with a capped backoff (or as long as the service's
 * Retry-After asks) and tries again, until the service answers, the user cancels, or `jobs.retryNow`
 * skips the wait. Kept across restarts.
 */
export interface JobWait {
  /** When the first failure of this outage happened (ms since epoch). */
  since: number;
  /** Attempts that failed in a row. */
  failures: number;
  /** Why it waits, for a person ("The app cannot reach the service …"). */
  reason: string;
  /** When the next attempt starts (ms since epoch); null while that attempt is under way. */
  nextAttemptAt: number | null;
}

/** A job as lists and events show it (its data stays in main: it may hold request headers). */
export interface JobSummary {
  id: string;
  /** `deferred-chat`, later `video`, ... */
  kind: string;
  state: JobState;
  /** Attempts started so far (1 on the first). */
  attempt: number;
  createdAt: number;
  updatedAt: number;
  /** The History run this job records into, if any. */
  runId: string | null;
  progress: JobProgress | null;
  /** While waiting (`wait`), the last transient failure; once failed, why. */
  error: WorkbenchError | null;
  /** Set while the job waits out an outage, until the service answers again. */
  wait: JobWait | null;
}

/** One entry of a job's state history: a lifecycle state or a new progress stage. */
export interface JobEvent {
  at: number;
  state: string;
  detail: unknown;
}

/** A whole job: the summary, what it produced, and its state history (oldest first). */
export interface JobRecord extends JobSummary {
  result: unknown;
  events: JobEvent[];
}

export const JobIdSchema = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/);

export const JobListSchema = z
  .object({
    /** Only unfinished jobs. */
    active: z.boolean().optional(),
    kind: z.string().max(64).optional(),
    limit: z.number().int().min(1).max(200).default(50),
  })
  .strict()
  .optional();

export type JobListInput = z.input<typeof JobListSchema>;

export const jobsContract = {
  /** Newest first: unfinished jobs with `active`, else the most recent of any state. */
  list: call<JobSummary[]>()(JobListSchema),
  get: call<JobRecord>()(z.object({ id: JobIdSchema }).strict()),
  /** A user cancel: the job stops and its run is recorded as cancelled. Finished jobs are left as they are. */
  cancel: call<JobSummary>()(z.object({ id: JobIdSchema }).strict()),
  /** Ends a waiting job's backoff now: its next attempt starts at once. Other jobs are returned unchanged. */
  retryNow: call<JobSummary>()(z.object({ id: JobIdSchema }).strict()),
  changed: event<JobSummary>(),
};
