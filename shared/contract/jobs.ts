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
 * backoff after a transient failure; then how it ended. The first three are "unfinished" and are
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
  error: WorkbenchError | null;
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
  changed: event<JobSummary>(),
};
