/**
 * The Chat playground's current run: streaming it, stopping it, and what came back (choices,
 * usage, cost, timings, the recorded RunRecord for the inspector). Streamed text is folded into
 * plain objects and published to a shallowRef once per frame.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { ChatSendInput, ChatStreamChunk } from '@shared/contract/chat';
import type { StreamHandle } from '@shared/contract/api';
import type { WorkbenchError } from '@shared/contract/errors';
import type { CapturedRequest, RunRecord, RunStatus } from '@shared/contract/runs';
import type { ChatRequest, ChatUsage } from '@shared/wire/chat';
import { useWorkbench } from '../api';
import { toWorkbenchError } from '../lib/errors';
import { applyDelta, choicesFromCompletion, outputSize, type ChoiceOutput } from '../lib/chat-output';
import { createFrameScheduler } from '../lib/frame';

/** idle before the first run; running/pending while it lasts; then how it ended. */
export type RunPhase = 'idle' | 'running' | 'pending' | RunStatus;

export const useChatRunStore = defineStore('chat-run', () => {
  const phase = ref<RunPhase>('idle');
  const choices = shallowRef<ChoiceOutput[]>([]);
  const usage = shallowRef<ChatUsage | null>(null);
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
  let handle: StreamHandle<RunRecord> | null = null;
  let stopping = false;

  // Deltas fold into `working` (plain objects); once a frame a fresh snapshot is published, so
  // child components that receive a choice as a prop see a new object and re-render.
  let working: ChoiceOutput[] = [];
  const publish = (): void => {
    choices.value = working.map((c) => ({ ...c, toolCalls: [...c.toolCalls], logprobs: [...c.logprobs] }));
  };
  const frame = createFrameScheduler(publish);
  const busy = computed(() => phase.value === 'running' || phase.value === 'pending');
  const costTicks = computed(() => usage.value?.cost_in_usd_ticks ?? record.value?.costTicks ?? null);

  function onChunk(chunk: ChatStreamChunk): void {
    switch (chunk.type) {
      case 'started':
        runId.value = chunk.runId;
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
      case 'deferred':
        phase.value = 'pending';
        polls.value = chunk.polls;
        deferredRequestId.value = chunk.requestId;
        break;
      case 'usage':
        usage.value = chunk.usage;
        break;
      case 'delta':
        if (phase.value === 'pending') phase.value = 'running';
        applyDelta(working, chunk);
        frame.request();
        break;
    }
  }

  function reset(): void {
    frame.cancel();
    working = [];
    choices.value = [];
    usage.value = null;
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
  }

  /** Takes the finished record; its output wins unless the stream showed more (a cut run). */
  function finish(result: RunRecord): void {
    frame.flush();
    record.value = result;
    isSandbox.value = result.isSandbox;
    if (result.usage) usage.value = result.usage;
    if (result.output) {
      const fromRecord = choicesFromCompletion(result.output);
      if (outputSize(fromRecord) >= outputSize(working)) working = fromRecord;
    }
    publish();
    error.value = result.error;
    retries.value = result.retries;
    if (result.timings.ttfbMs !== null) ttfbMs.value = result.timings.ttfbMs;
    phase.value = result.status;
  }

  /**
   * Starts a run. Resolves when it has ended (never rejects: failures become `error`, with any
   * partial output kept in `choices`).
   */
  async function send(request: ChatRequest): Promise<void> {
    if (busy.value) return;
    reset();
    phase.value = 'running';
    stopping = false;
    // ChatRequest is the wire type; the contract's schema is the same shape, open to extra fields.
    const current = useWorkbench().chat.send({ request: request as unknown as ChatSendInput['request'] }, onChunk);
    handle = current;
    try {
      finish(await current.result);
    } catch (err) {
      frame.flush();
      const failure = toWorkbenchError(err);
      if (failure.code === 'cancelled' || stopping) {
        phase.value = 'cancelled';
      } else {
        error.value = failure;
        phase.value = 'error';
      }
      publish();
    } finally {
      if (handle === current) handle = null;
    }
  }

  /** Stops the running stream; the run ends as cancelled with its partial text kept. */
  async function stop(): Promise<void> {
    if (!handle || stopping) return;
    stopping = true;
    try {
      await handle.cancel();
    } catch (err) {
      // The run may have ended between the click and the cancel; its own result says how.
      if (toWorkbenchError(err).code !== 'not_found') error.value = toWorkbenchError(err);
    }
  }

  /** Frame flush for the end of a burst (tests, and before reading text synchronously). */
  function flush(): void {
    frame.flush();
  }

  return {
    phase, choices, usage, error, record, captured, runId, isSandbox, httpStatus, ttfbMs, retries, retryNote,
    polls, deferredRequestId, busy, costTicks, send, stop, flush, reset,
  };
});
