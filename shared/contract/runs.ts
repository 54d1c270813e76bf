/**
 * What a recorded run looks like to the renderer: shared by the chat stream result and History.
 */
import type { ChatCompletion, ChatUsage } from '../wire/chat';
import type { WorkbenchError } from './errors';
import type { RunMetrics } from '../run-metrics';
import type { MediaUrl } from './media';
import type { Endpoint } from '../families';

export const RUN_STATUSES = ['pending', 'completed', 'cancelled', 'incomplete', 'error'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/**
 * Every kind of request a run records: derived from the families' endpoint descriptors
 * (shared/families/index.ts ENDPOINTS is the list at run time).
 */
export type { Endpoint } from '../families';

/** The request as sent, with secrets redacted (Authorization is never kept). */
export interface CapturedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * A cap the client hit on a response (main/api/limits.ts): what was not read or kept, and why,
 * in a sentence the inspector shows as it is.
 */
export interface ResponseNotice {
  limit: 'error_body' | 'json_body' | 'sse_event' | 'event_log' | 'decompression';
  message: string;
}

export interface CapturedResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON body for non-streamed answers (or the error body); null for streams. */
  body: unknown;
  /** Present when a cap cut what was read or kept of this response. */
  notices?: ResponseNotice[];
}

/**
 * One captured event: milliseconds since the request (or live session) started, its `event:` name
 * when the frame had one (Responses, Messages), and its raw data. SSE recordings carry only those
 * (read them through shared/captured-events.ts: direction 'in', kind from the data). Live
 * sessions add which way it went, its kind (`binary` data is base64) and, for audio, a reference
 * into the session's audio track instead of the bytes.
 */
export interface CapturedEvent {
  t: number;
  event?: string;
  data: string;
  /** 'in' from the service, 'out' to it. */
  direction?: EventDirection;
  kind?: EventKind;
  audio?: AudioRef;
}

export type EventDirection = 'in' | 'out';
export type EventKind = 'json' | 'text' | 'binary' | 'audio';

/** Where an audio frame's samples are: a span of a recorded track (its id), not the bytes. */
export interface AudioRef {
  track: string;
  offsetMs: number;
  durationMs: number;
  bytes: number;
}

export interface RunTimings {
  startedAt: number;
  ttfbMs: number | null;
  totalMs: number | null;
  /**
   * From the start to the first generated text, reasoning or tool call (absent on runs recorded
   * before it was kept, and on runs that generated nothing).
   */
  firstTokenMs?: number | null;
}

/** Runs started together as one comparison (the same `id` on each); see RunGroupSchema. */
export interface RunGroup {
  kind: 'compare';
  id: string;
}

/** A piece of a search snippet: text as stored, `match` where it matched the query. */
export interface SnippetPart {
  text: string;
  match?: true;
}

/**
 * What History's row says of a media run instead of tokens and speed: images, their count and
 * size; a video, its duration and resolution; an upload, the file's size.
 */
export interface RunMediaFacts {
  kind: 'images' | 'video' | 'file';
  /** Images or videos the run kept (0 while running, or when it failed). */
  count: number;
  /** Pixels of the largest item kept. */
  width: number | null;
  height: number | null;
  /** Seconds (a video). */
  duration: number | null;
  /** Bytes: of everything kept, or of the uploaded file. */
  bytes: number | null;
}

export interface RunSummary {
  id: string;
  createdAt: number;
  endpoint: Endpoint;
  model: string;
  status: RunStatus;
  connectionId: string;
  connectionName: string;
  isSandbox: boolean;
  promptPreview: string;
  outputPreview: string;
  costTicks: number | null;
  totalMs: number | null;
  totalTokens: number | null;
  deferredRequestId: string | null;
  /** Time to first token, tokens per second, tokens and cost, as History lists them. */
  metrics: RunMetrics;
  /** The comparison this run was part of, if any. */
  group?: RunGroup | null;
  /** What an image, video or upload run made, as History lists it (null for text runs). */
  made?: RunMediaFacts | null;
  /** With a History search: the passage that matched, matches marked (plain text, never HTML). */
  snippet?: SnippetPart[];
}

export interface RunRecord extends RunSummary {
  request: CapturedRequest;
  response: CapturedResponse | null;
  /** How many raw SSE events the run recorded; read them with `history.events` (they are not in the record). */
  eventCount: number;
  /**
   * The interface's own answer object, assembled from the body or from the stream's events
   * (partial if cut): a ChatCompletion for chat, a Response (`responses*`), a Message, a text
   * completion or a Complete object, a Compaction, a deleted-response body. Read it through
   * shared/text-output.ts, which normalises any of them by `endpoint`.
   */
  output: RunOutput | null;
  error: WorkbenchError | null;
  timings: RunTimings;
  /** Usage normalised to the chat shape for every interface (the raw usage is in `output`). */
  usage: ChatUsage | null;
  retries: number;
  /**
   * From `history.get`: where the page loads each medium the request sent, by blob hash. The
   * request's body then holds a BlobReference (shared/contract/media.ts) in place of its base64;
   * `history.request` gives the request with the bytes back, for a re-run. Absent on a run's own
   * result (that request is the one the page sent, bytes included).
   */
  media?: Record<string, MediaUrl>;
}

/** A JSON object as the service sent it. */
export type JsonObject = { [key: string]: unknown };

/** See RunRecord.output. */
export type RunOutput = ChatCompletion | JsonObject;
