/**
 * One recorded run of a text interface (chat, Responses, Messages, legacy completions), from the
 * pending record written before the request leaves to the finished one: the `started`,
 * `response`, `retry`, coalesced `delta`, `meta` and `usage` chunks the renderer sees, checkpoints
 * while a stream runs, pre-flight violations recorded as `invalid_input` (nothing sent), and the
 * end state with the partial output kept and the cost (the service's figure, else an estimate).
 *
 * What the client returns is already scrubbed of the connection's key; what a run assembles from
 * many events is not, so a key a service spreads over several deltas would reappear. Deltas
 * pass a DeltaScrubber, and every chunk and every write to the record pass the connection's
 * scrubber once more.
 */
import type { ApiResult, ResponseMeta, StreamOutcome } from '../api/client';
import { toWorkbenchError, type ApiError } from '../api/errors';
import type { SecretScrubber } from '../api/secret-scrubber';
import type { WorkbenchError } from '../../shared/contract/errors';
import type { CapturedRequest, CapturedResponse, Endpoint, RunGroup, RunOutput, RunRecord, RunStatus, RunTimings } from '../../shared/contract/runs';
import type { TextRunMeta, TextStreamChunk } from '../../shared/contract/text';
import { costInTicks } from '../../shared/cost';
import { chatUsageOf, choicesOf, hasServiceCost, metaOf } from '../../shared/text-output';
import type { RequestViolation } from '../../shared/validate/violations';
import type { ChatUsage } from '../../shared/wire/chat';
import type { BlobStore } from '../store/blobs';
import type { Db } from '../store/db';
import type { NewRun, RunUpdate } from '../store/runs';
import { outputPreviewText, outputTextOf, requestPreview, requestText } from './chat-text';
import type { ResolvedConnection } from './connections-service';
import { DeltaBatcher } from './delta-batcher';
import { DeltaScrubber } from './delta-scrubber';
import type { ModelsService } from './models-service';
import type { RecordedBlob } from './request-media';
import { newRunId, RunRecorder } from './run-recorder';

/** What a stream handler gets from the host: cancellation and a way to send chunks. */
export interface TextRunContext {
  signal: AbortSignal;
  emit(chunk: TextStreamChunk): void;
}

/** What every text service is built with. */
export interface TextServiceDeps {
  db: Db;
  /** Where base64 media of recorded requests goes; without it requests are recorded as sent. */
  blobs?: BlobStore;
  models: ModelsService;
  now?: () => number;
}

export interface TextRunStart {
  connection: ResolvedConnection;
  endpoint: Endpoint;
  model: string;
  /** The request as the client will send it (ApiClient.describe). */
  request: CapturedRequest;
  ctx: TextRunContext;
  /** What History lists as the prompt when the body has none (a GET or DELETE by id). */
  promptPreview?: string;
  /**
   * False for a GET of a stored response: the usage in its answer belongs to the run that made
   * it, so this run records none (and no cost) rather than counting it twice.
   */
  countsUsage?: boolean;
  /** The comparison the run is part of (Compare's columns). */
  group?: RunGroup;
  /** The request as recorded, when it differs from `request` (media moved to the blob store, see request-media.ts). */
  recorded?: { request: CapturedRequest; blobs: RecordedBlob[] };
}

type Delta = Extract<TextStreamChunk, { type: 'delta' }>;

/** The record a text run starts with: `pending`, its request as sent, what search indexes. */
export function pendingRun(start: Omit<TextRunStart, 'ctx'>, id: string, createdAt: number): NewRun {
  const body = start.request.body;
  return {
    id,
    createdAt,
    endpoint: start.endpoint,
    model: start.model,
    connectionId: start.connection.profile.id,
    connectionName: start.connection.profile.name,
    isSandbox: start.connection.isSandbox,
    request: start.request,
    promptText: requestText(start.endpoint, body),
    promptPreview: start.promptPreview ?? requestPreview(start.endpoint, body),
    status: 'pending',
    group: start.group,
  };
}

/** How a failed run is classed: output cut short after the answer began is `incomplete`. */
export function statusForError(error: ApiError, answered: boolean): RunStatus {
  if (error.kind === 'cancelled') return 'cancelled';
  if (error.kind === 'stream_incomplete') return 'incomplete';
  return answered && error.kind !== 'http' ? 'incomplete' : 'error';
}

/**
 * What a run cost: the service's own figure when its usage carries one, else an estimate from the
 * catalogue's prices (null when the catalogue has not been fetched or there is no usage).
 */
export function runCost(
  models: ModelsService,
  connection: ResolvedConnection,
  model: string,
  usage: ChatUsage | null,
  rawUsage: unknown = usage,
): number | null {
  if (!usage) return null;
  if (hasServiceCost(rawUsage)) return (rawUsage as { cost_in_usd_ticks: number }).cost_in_usd_ticks;
  const entry = models.cachedEntry(connection.client, model);
  if (!entry) return null;
  return costInTicks(entry.prices, {
    promptTokens: usage.prompt_tokens,
    cachedTokens: usage.prompt_tokens_details?.cached_tokens,
    imageTokens: usage.prompt_tokens_details?.image_tokens,
    completionTokens: usage.completion_tokens + (usage.completion_tokens_details?.reasoning_tokens ?? 0),
  });
}

/** The error a run records: none for a cancel (the status says it). */
function recordedError(error: ApiError): WorkbenchError | null {
  return error.kind === 'cancelled' ? null : toWorkbenchError(error);
}

export class TextRun {
  readonly recorder: RunRecorder;
  readonly startedAt: number;
  private readonly batcher: DeltaBatcher;
  private readonly scrubber: SecretScrubber;
  /** What reaches the page: every chunk scrubbed. */
  private readonly emit: (chunk: TextStreamChunk) => void;
  private readonly deltaScrubber: DeltaScrubber;
  private ttfbMs: number | null = null;
  /** When the first generated text arrived, for time to first token and tokens per second. */
  private firstTokenMs: number | null = null;
  private readonly now: () => number;
  private opened: ResponseMeta | null = null;

  private constructor(
    private readonly deps: TextServiceDeps,
    private readonly start: TextRunStart,
  ) {
    const now = deps.now ?? Date.now;
    this.now = now;
    this.startedAt = now();
    this.scrubber = start.connection.client.scrubber;
    this.emit = (chunk) => start.ctx.emit(this.scrubber.value(chunk));
    this.deltaScrubber = new DeltaScrubber(this.scrubber);
    this.recorder = RunRecorder.start(
      deps.db,
      { ...pendingRun(start, newRunId(), this.startedAt), ...(start.recorded ? { request: start.recorded.request, blobs: start.recorded.blobs } : {}) },
      now,
      start.recorded ? start.request : undefined,
      this.scrubber,
    );
    this.batcher = new DeltaBatcher(this.emit);
    this.emit({ type: 'started', runId: this.recorder.id, request: start.request, isSandbox: start.connection.isSandbox });
  }

  /** Records the run as pending and tells the renderer it started. */
  static begin(deps: TextServiceDeps, start: TextRunStart): TextRun {
    return new TextRun(deps, start);
  }

  get id(): string {
    return this.recorder.id;
  }

  /** Pre-flight violations: the run is recorded with `invalid_input` and nothing is sent. */
  reject(violations: readonly RequestViolation[]): RunRecord {
    const error: WorkbenchError = {
      code: 'invalid_input',
      message: violations.map((v) => v.message).join('; '),
      issues: violations.map((v) => ({ path: v.field, message: v.message })),
    };
    return this.recorder.finish({ status: 'error', error, timings: this.timings(0) });
  }

  /** Retry notifications, for the request options. */
  readonly onRetry = (info: { attempt: number; delayMs: number; reason: string }): void => {
    this.emit({ type: 'retry', ...info });
  };

  /**
   * The stream opened (or a plain answer arrived). Its status and headers are recorded at once,
   * so a run the app does not live to finish still shows them in the inspector.
   */
  readonly onOpen = (meta: ResponseMeta): void => {
    this.opening(meta);
    this.recorder.update(this.scrubber.value({ response: { status: meta.status, headers: meta.headers, body: null } }));
  };

  /** What opening a response changes besides the record: its timing, and the page is told. */
  private opening(meta: ResponseMeta): void {
    this.ttfbMs = meta.ttfbMs;
    this.opened = meta;
    this.emit({ type: 'response', status: meta.status, ttfbMs: meta.ttfbMs, requestId: meta.requestId });
  }

  /** Keeps every SSE event as it arrived (unknown ones too, with its `event:` name) for the inspector. */
  readonly onRawEvent = (raw: { event: string | null; data: string }, atMs: number): void => {
    this.recorder.event({ t: Math.round(atMs), ...(raw.event ? { event: raw.event } : {}), data: raw.data });
  };

  /** The model the service answered with, when the request did not name one (GET by id). */
  setModel(model: string): void {
    if (model) this.recorder.update({ model });
  }

  delta(delta: Delta): void {
    if (this.firstTokenMs === null && (delta.content || delta.reasoning || delta.toolCalls?.length)) {
      this.firstTokenMs = Math.max(0, this.now() - this.startedAt);
    }
    const scrubbed = this.deltaScrubber.scrub(delta);
    if (scrubbed) this.batcher.push(scrubbed);
  }

  meta(meta: TextRunMeta): void {
    if (Object.keys(meta).length === 0) return;
    this.batcher.flush();
    this.emit({ type: 'meta', meta });
  }

  usage(usage: ChatUsage | null): void {
    if (!usage) return;
    this.batcher.flush();
    this.emit({ type: 'usage', usage });
  }

  /** Writes the partial output at most once a second. */
  checkpoint(output: () => object): void {
    // Mid-stream: a text may end in the first piece of a key whose rest is still to come.
    this.recorder.checkpoint(() => this.outputUpdate(output() as RunOutput, true));
  }

  /** A whole answer goes to the renderer as the same chunks a stream gives. */
  emitAnswer(output: object): void {
    const answer = output as RunOutput;
    const endpoint = this.start.endpoint;
    for (const c of choicesOf(endpoint, answer)) {
      this.emit({
        type: 'delta',
        choice: c.index,
        ...(c.reasoning ? { reasoning: c.reasoning } : {}),
        ...(c.content ? { content: c.content } : {}),
        ...(c.toolCalls.length ? { toolCalls: c.toolCalls } : {}),
        ...(c.logprobs.length ? { logprobs: c.logprobs } : {}),
        finishReason: c.finishReason,
      });
    }
    this.meta(metaOf(endpoint, answer));
    this.usage(chatUsageOf(endpoint, (output as { usage?: unknown }).usage));
  }

  /**
   * Ends a streamed run. `output` is the assembled answer (null when nothing arrived), `rawUsage`
   * the interface's own usage (null when unknown: a cut stream is shown as unknown, not zero).
   */
  finishStream(outcome: StreamOutcome, output: object | null, rawUsage: unknown): RunRecord {
    for (const rest of this.deltaScrubber.end()) this.batcher.push(rest);
    this.batcher.dispose();
    const error = outcome.ok ? null : outcome.error!;
    const meta = outcome.meta ?? this.opened;
    return this.finish({
      status: error ? statusForError(error, output !== null) : 'completed',
      error: error ? recordedError(error) : null,
      response: meta ? { status: meta.status, headers: meta.headers, body: error?.body ?? null, ...(outcome.notices ? { notices: outcome.notices } : {}) } : null,
      output,
      rawUsage,
      retries: outcome.retries,
      totalMs: outcome.totalMs,
    });
  }

  /** Ends a plain run: a success is emitted as chunks (unless `emit` is false) and recorded. */
  finishPlain<T extends object>(result: ApiResult<T>, emit = true): RunRecord {
    // The whole answer is here: it is recorded once, by finish() below.
    if (result.meta) this.opening(result.meta);
    const response: CapturedResponse | null = result.meta
      ? { status: result.meta.status, headers: result.meta.headers, body: result.ok ? result.value : (result.error.body ?? null), ...(result.notices ? { notices: result.notices } : {}) }
      : null;
    if (!result.ok) {
      return this.finish({ status: statusForError(result.error, false), error: recordedError(result.error), response, output: null, rawUsage: null, retries: result.retries, totalMs: result.totalMs });
    }
    if (emit && result.value) this.emitAnswer(result.value);
    const value = result.value ?? null;
    return this.finish({
      status: 'completed',
      error: null,
      response,
      output: value,
      rawUsage: value ? (value as { usage?: unknown }).usage : null,
      retries: result.retries,
      totalMs: result.totalMs,
    });
  }

  private finish(end: {
    status: RunStatus;
    error: WorkbenchError | null;
    response: CapturedResponse | null;
    output: object | null;
    rawUsage: unknown;
    retries: number;
    totalMs: number;
  }): RunRecord {
    const usage = this.start.countsUsage === false ? null : chatUsageOf(this.start.endpoint, end.rawUsage);
    return this.recorder.finish(this.scrubber.value({
      status: end.status,
      error: end.error,
      response: end.response,
      ...(end.output !== null ? this.outputUpdate(end.output as RunOutput) : { output: null, outputText: '' }),
      usage,
      costTicks: this.cost(usage, end.rawUsage),
      retries: end.retries,
      timings: this.timings(Math.round(end.totalMs)),
    }));
  }

  /** The run's timings as recorded at its end. */
  private timings(totalMs: number): RunTimings {
    return { startedAt: this.startedAt, ttfbMs: this.ttfbMs, totalMs, firstTokenMs: this.firstTokenMs };
  }

  /**
   * The output as recorded: masked whole, so a key spread over several events is caught too; a
   * `partial` one (a checkpoint) also masks a text's end that could be the start of a key.
   */
  private outputUpdate(assembled: RunOutput, partial = false): RunUpdate {
    const endpoint = this.start.endpoint;
    const output = partial ? this.scrubber.partial(assembled) : this.scrubber.value(assembled);
    return { output, outputText: outputTextOf(endpoint, output), outputPreview: outputPreviewText(endpoint, output) };
  }

  private cost(usage: ChatUsage | null, rawUsage: unknown): number | null {
    return runCost(this.deps.models, this.start.connection, this.start.model, usage, rawUsage);
  }
}
