/**
 * What a recorded run looks like to the renderer: shared by the chat stream result and History.
 */
import type { ChatCompletion, ChatUsage } from '../wire/chat';
import type { WorkbenchError } from './errors';

export const RUN_STATUSES = ['pending', 'completed', 'cancelled', 'incomplete', 'error'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const ENDPOINTS = ['chat.completions'] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

/** The request as sent, with secrets redacted (Authorization is never kept). */
export interface CapturedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface CapturedResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON body for non-streamed answers (or the error body); null for streams. */
  body: unknown;
}

/** One SSE event as it arrived: milliseconds since the request started, and its raw data line. */
export interface CapturedEvent {
  t: number;
  data: string;
}

export interface RunTimings {
  startedAt: number;
  ttfbMs: number | null;
  totalMs: number | null;
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
}

export interface RunRecord extends RunSummary {
  request: CapturedRequest;
  response: CapturedResponse | null;
  events: CapturedEvent[];
  /** The assembled completion (from the body, or from the stream's chunks, partial if cut). */
  output: ChatCompletion | null;
  error: WorkbenchError | null;
  timings: RunTimings;
  usage: ChatUsage | null;
  retries: number;
}
