/** History: every run, searchable offline. */
import { z } from 'zod';
import { call } from './define';
import { ENDPOINTS } from '../families';
import { RUN_STATUSES, type CapturedEvent, type CapturedRequest, type EventDirection, type RunRecord, type RunSummary } from './runs';
import type { MediaUrl } from './media';
import type { SessionMark, SessionMetrics } from '../session-metrics';
import { RunIdSchema } from './run-id';

export const HistorySearchSchema = z
  .object({
    query: z.string().max(500).optional(),
    model: z.string().max(200).optional(),
    status: z.enum(RUN_STATUSES).optional(),
    endpoint: z.enum(ENDPOINTS).optional(),
    /** Opaque cursor from the previous page. */
    cursor: z.string().max(200).optional(),
    limit: z.number().int().min(1).max(200).default(50),
  })
  .strict();

export type HistorySearchInput = z.input<typeof HistorySearchSchema>;

export interface HistoryPage {
  items: RunSummary[];
  nextCursor: string | null;
}

export { RunIdSchema } from './run-id';

/** Largest page of raw events one `history.events` call returns. */
export const MAX_EVENTS_PAGE = 5_000;

export const HistoryEventsSchema = z
  .object({
    id: RunIdSchema,
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(MAX_EVENTS_PAGE).default(1_000),
  })
  .strict();

export type HistoryEventsInput = z.input<typeof HistoryEventsSchema>;

/** Events `offset ..` of a run (at most `limit`), and how many the run has in all. */
export interface RunEventsPage {
  events: CapturedEvent[];
  offset: number;
  total: number;
}

/** A session's timeline: its events and marks in one order, a page at a time (a virtualised list). */
export const HistoryTimelineSchema = z
  .object({
    id: RunIdSchema,
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(MAX_EVENTS_PAGE).default(500),
  })
  .strict();

export type HistoryTimelineInput = z.input<typeof HistoryTimelineSchema>;

/** One row of a session's timeline: an event as captured, or a typed mark. `at` is its position. */
export type TimelineItem = { at: number; event: CapturedEvent } | { at: number; mark: SessionMark };

export interface SessionTimelinePage {
  items: TimelineItem[];
  offset: number;
  /** Events and marks in all. */
  total: number;
}

/** One audio track of a recorded session, playable offline. */
export interface SessionTrackRecord {
  id: string;
  direction: EventDirection;
  name: string;
  sampleRate: number;
  channels: number;
  /** Where its first sample sits on the session clock. */
  startMs: number;
  /** Null when the track was lost. */
  durationMs: number | null;
  /** `crashed`: finalised at the next start after the app stopped mid-session. */
  state: 'recording' | 'closed' | 'crashed' | 'lost';
  /** Where the page loads its WAV; null while recording, when lost, or when its blob is gone. */
  media: MediaUrl | null;
}

/** What History keeps of a live session besides its run record. */
export interface SessionRecord {
  id: string;
  kind: string;
  /** `crashed`: the app stopped during the session (it ended abnormally; what was written is kept). */
  state: 'recording' | 'ended' | 'aborted' | 'crashed';
  startedAt: number;
  endedAt: number | null;
  endReason: string | null;
  tracks: SessionTrackRecord[];
  marks: SessionMark[];
  metrics: SessionMetrics;
  /** Events and marks in the timeline (page through them with `history.timeline`). */
  timelineTotal: number;
}

/** Most runs one export takes (a selection in the History list). */
export const MAX_EXPORT_RUNS = 1_000;

export const HistoryExportSchema = z.object({ ids: z.array(RunIdSchema).min(1, 'select at least one run').max(MAX_EXPORT_RUNS) }).strict();

/**
 * Where an export went: Electron, the file the user chose (`savedTo`); browser mode, a one-time
 * link the page hands to the browser's download (`url`). `cancelled` when the save dialog closed.
 */
export interface HistoryExportResult {
  filename: string;
  runs: number;
  bytes: number;
  savedTo?: string;
  url?: string;
  cancelled?: boolean;
}

export const historyContract = {
  search: call<HistoryPage>()(HistorySearchSchema),
  /** The run as recorded: media the request sent are references with URLs (`media`), never bytes. */
  get: call<RunRecord>()(z.object({ id: RunIdSchema }).strict()),
  /** The run's request as sent, media bytes put back: what a re-run (Run again, Open in playground, code) sends. */
  request: call<CapturedRequest>()(z.object({ id: RunIdSchema }).strict()),
  /** The run's raw SSE events, a page at a time (RunRecord only carries `eventCount`). */
  events: call<RunEventsPage>()(HistoryEventsSchema),
  /** A live session's tracks (with URLs), marks and metrics; not_found for a run that is not a session. */
  session: call<SessionRecord>()(z.object({ id: RunIdSchema }).strict()),
  /** A live session's events and marks in one order, a page at a time. */
  timeline: call<SessionTimelinePage>()(HistoryTimelineSchema),
  facets: call<{ models: string[] }>()(z.object({}).strict().optional()),
  remove: call<{ removed: boolean }>()(z.object({ id: RunIdSchema }).strict()),
  /** The chosen runs as JSON Lines (one record with its events per line), saved or offered for download. */
  exportJsonl: call<HistoryExportResult>()(HistoryExportSchema),
};
