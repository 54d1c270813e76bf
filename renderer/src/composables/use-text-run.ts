/**
 * One text run of any interface (chat, Responses, Messages, legacy completions): starting it,
 * stopping it, and what came back — choices, usage, cost, timings, interface meta (response id,
 * stop reason, citations) and the recorded RunRecord for the inspector. Streamed text is folded
 * into plain objects and published to a shallowRef once per frame.
 *
 *   const run = useTextRun((input, onChunk) => useWorkbench().responses.create(input, onChunk));
 *   await run.send({ request });   // never rejects; failures land in run.error
 *
 * Playground stores wrap one of these; Compare makes one per column.
 */
import { computed, ref, shallowRef } from 'vue';
import type { StreamHandle } from '@shared/contract/api';
import type { WorkbenchError } from '@shared/contract/errors';
import type { CapturedRequest, RunRecord, RunStatus } from '@shared/contract/runs';
import type { TextRunMeta, TextStreamChunk } from '@shared/contract/text';
import type { ChatUsage } from '@shared/wire/chat';
import { metaOf } from '@shared/text-output';
import { toWorkbenchError } from '../lib/errors';
import { applyDelta, choicesFromRecord, outputSize, type ChoiceOutput } from '../lib/chat-output';
import { createFrameScheduler } from '../lib/frame';

/** idle before the first run; running/pending while it lasts; then how it ended. */
export type RunPhase = 'idle' | 'running' | 'pending' | RunStatus;

/** Starts one run on the bridge: the family's stream method with this input. */
export type TextRunStarter<I> = (input: I, onChunk: (chunk: TextStreamChunk) => void) => StreamHandle<RunRecord>;

/** For families whose runs can be durable jobs in main (deferred chat). */
export interface TextRunJobs {
  /** Follows run `runId` already under way (a reloaded view): its progress, then its record. */
  follow(runId: string, onChunk: (chunk: TextStreamChunk) => void): StreamHandle<RunRecord>;
  /** Stops a job for good (closing the stream would only stop following it). */
  cancel(jobId: string): Promise<unknown>;
  /** Ends a waiting job's backoff: its next attempt starts now. */
  retryNow?(jobId: string): Promise<unknown>;
}

/** A deferred run's job waiting out an outage (main's JobWait with the last error's message). */
export type RunWait = NonNullable<Extract<TextStreamChunk, { type: 'waiting' }>['wait']>;

export function useTextRun<I>(start: TextRunStarter<I>, jobs?: TextRunJobs) {
  const phase = ref<RunPhase>('idle');
  const choices = shallowRef<ChoiceOutput[]>([]);
  const usage = shallowRef<ChatUsage | null>(null);
  const meta = shallowRef<TextRunMeta>({});
  const error = shallowRef<WorkbenchError | null>(null);
  const record = shallowRef<RunRecord | null>(null);
  const captured = shallowRef<CapturedRequest | null>(null);
  const runId = ref<string | null>(null);
  const isSandbox = ref(false);
  const httpStatus = ref<number | null>(null);
  const ttfbMs = ref<number | null>(null);
  const retries = ref(0);
  const retryNote = ref<string | null>(null);
  const polls = ref(0);
  const deferredRequestId = ref<string | null>(null);
  /** The durable job carrying this run (deferred chat), once main says so. */
  const jobId = ref<string | null>(null);
  /** Set while that job waits out an outage: why, since when, the next try. */
  const waiting = shallowRef<RunWait | null>(null);
  let handle: StreamHandle<RunRecord> | null = null;
  let stopping = false;
  /**
   * Which run owns the state: bumped when a run starts and when the state is taken over (show,
   * reset), so a stream left behind can no longer write into what is on screen.
   */
  let generation = 0;

  // Deltas fold into `working` (plain objects); once a frame a fresh snapshot is published, so
  // child components that receive a choice as a prop see a new object and re-render.
  let working: ChoiceOutput[] = [];
  const publish = (): void => {
    choices.value = working.map((c) => ({ ...c, toolCalls: [...c.toolCalls], logprobs: [...c.logprobs] }));
  };
  const frame = createFrameScheduler(publish);
  const busy = computed(() => phase.value === 'running' || phase.value === 'pending');
  const costTicks = computed(() => record.value?.costTicks ?? usage.value?.cost_in_usd_ticks ?? null);

  function onChunk(chunk: TextStreamChunk): void {
    switch (chunk.type) {
      case 'started':
        runId.value = chunk.runId;
        jobId.value = chunk.jobId ?? null;
        captured.value = chunk.request;
        isSandbox.value = chunk.isSandbox;
        break;
      case 'retry':
        retries.value = chunk.attempt;
        retryNote.value = `Retrying (attempt ${chunk.attempt}) in ${Math.round(chunk.delayMs)} ms: ${chunk.reason}`;
        break;
      case 'response':
        httpStatus.value = chunk.status;
        ttfbMs.value = chunk.ttfbMs;
        retryNote.value = null;
        break;
      case 'waiting':
        waiting.value = chunk.wait;
        break;
      case 'deferred':
        phase.value = 'pending';
        polls.value = chunk.polls;
        deferredRequestId.value = chunk.requestId;
        break;
      case 'usage':
        usage.value = chunk.usage;
        break;
      case 'meta':
        meta.value = { ...meta.value, ...chunk.meta };
        break;
      case 'delta':
        if (phase.value === 'pending') phase.value = 'running';
        applyDelta(working, chunk);
        frame.request();
        break;
    }
  }

  /** Empties the output (the phase is the caller's). */
  function clearOutput(): void {
    frame.cancel();
    working = [];
    choices.value = [];
    usage.value = null;
    meta.value = {};
    error.value = null;
    record.value = null;
    captured.value = null;
    runId.value = null;
    isSandbox.value = false;
    httpStatus.value = null;
    ttfbMs.value = null;
    retries.value = 0;
    retryNote.value = null;
    polls.value = 0;
    deferredRequestId.value = null;
    jobId.value = null;
    waiting.value = null;
  }

  /** Takes the finished record; its output wins unless the stream showed more (a cut run). */
  function finish(result: RunRecord): void {
    frame.flush();
    // "Retrying in 850 ms…" was about an attempt; the run has ended (the count stays in `retries`).
    retryNote.value = null;
    waiting.value = null;
    record.value = result;
    isSandbox.value = result.isSandbox;
    if (result.usage) usage.value = result.usage;
    if (result.output) {
      const fromRecord = choicesFromRecord(result);
      if (outputSize(fromRecord) >= outputSize(working)) working = fromRecord;
      meta.value = { ...meta.value, ...metaOf(result.endpoint, result.output) };
    }
    publish();
    error.value = result.error;
    retries.value = result.retries;
    if (result.timings.ttfbMs !== null) ttfbMs.value = result.timings.ttfbMs;
    phase.value = result.status;
  }

  /**
   * Starts a run. Resolves with the record when it has ended, or null when it failed before one
   * existed (never rejects: failures become `error`, with any partial output kept in `choices`).
   */
  async function send(input: I): Promise<RunRecord | null> {
    if (busy.value) return null;
    return drive((onRunChunk) => start(input, onRunChunk), 'running');
  }

  /**
   * Follows run `runId` that main carries as a durable job (a deferred chat sent before a reload):
   * shown pending, then finished, with no action from the user. Resolves like send().
   */
  async function follow(id: string): Promise<RunRecord | null> {
    if (busy.value || !jobs) return null;
    return drive((onRunChunk) => jobs.follow(id, onRunChunk), 'pending');
  }

  async function drive(begin: (onRunChunk: (chunk: TextStreamChunk) => void) => StreamHandle<RunRecord>, first: RunPhase): Promise<RunRecord | null> {
    clearOutput();
    phase.value = first;
    stopping = false;
    const mine = ++generation;
    const current = begin((chunk) => {
      if (generation === mine) onChunk(chunk);
    });
    handle = current;
    try {
      const result = await current.result;
      if (generation === mine) finish(result);
      return result;
    } catch (err) {
      if (generation !== mine) return null;
      frame.flush();
      retryNote.value = null;
      waiting.value = null;
      const failure = toWorkbenchError(err);
      if (failure.code === 'cancelled' || stopping) {
        phase.value = 'cancelled';
      } else {
        error.value = failure;
        phase.value = 'error';
      }
      publish();
      return null;
    } finally {
      if (handle === current) handle = null;
    }
  }

  /**
   * Stops the run; it ends as cancelled with its partial text kept. A run a durable job carries is
   * cancelled through the job (the stream then ends with the cancelled record).
   */
  async function stop(): Promise<void> {
    if (!handle || stopping) return;
    stopping = true;
    const mine = generation;
    try {
      if (jobId.value && jobs) await jobs.cancel(jobId.value);
      else await handle.cancel();
    } catch (err) {
      // The run may have ended between the click and the cancel; its own result says how.
      if (toWorkbenchError(err).code !== 'not_found' && generation === mine) error.value = toWorkbenchError(err);
    }
  }

  /** "Retry now" on a run whose job waits out an outage: the next attempt starts at once. */
  async function retryNow(): Promise<void> {
    if (!jobId.value || !jobs?.retryNow || !waiting.value) return;
    try {
      await jobs.retryNow(jobId.value);
    } catch (err) {
      // A job that ended meanwhile says how in its own result.
      if (toWorkbenchError(err).code !== 'not_found') error.value = toWorkbenchError(err);
    }
  }

  /**
   * Lets go of the run under way, if any: it is stopped (it is recorded as cancelled, with what it
   * produced) and nothing more of it reaches the state.
   */
  function detach(): void {
    if (handle) void stop();
    handle = null;
    generation++;
  }

  /** Back to idle with nothing shown; a run under way is stopped first. */
  function reset(): void {
    detach();
    clearOutput();
    phase.value = 'idle';
  }

  /**
   * Shows a recorded run (e.g. one opened from History or by id) as if it had just finished; a run
   * under way is stopped first, so its late chunks cannot mix into the recorded output.
   */
  function show(result: RunRecord): void {
    detach();
    clearOutput();
    finish(result);
  }

  /** Frame flush for the end of a burst (tests, and before reading text synchronously). */
  function flush(): void {
    frame.flush();
  }

  return {
    phase, choices, usage, meta, error, record, captured, runId, isSandbox, httpStatus, ttfbMs, retries, retryNote,
    polls, deferredRequestId, jobId, waiting, busy, costTicks, send, follow, stop, retryNow, show, flush, reset,
  };
}

export type TextRun<I> = ReturnType<typeof useTextRun<I>>;
