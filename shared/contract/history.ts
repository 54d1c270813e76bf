/** History: every run, searchable offline. */
import { z } from 'zod';
import { call } from './define';
import { ENDPOINTS } from '../families';
import { RUN_STATUSES, type CapturedEvent, type CapturedRequest, type RunRecord, type RunSummary } from './runs';

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

export const RunIdSchema = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/);

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
  facets: call<{ models: string[] }>()(z.object({}).strict().optional()),
  remove: call<{ removed: boolean }>()(z.object({ id: RunIdSchema }).strict()),
  /** The chosen runs as JSON Lines (one record with its events per line), saved or offered for download. */
  exportJsonl: call<HistoryExportResult>()(HistoryExportSchema),
};
