/**
 * Maps `runs` rows to the contract's RunSummary and RunRecord. The column lists live here so the
 * summary query never selects the large JSON blobs.
 */
import type { CapturedRequest, CapturedResponse, Endpoint, RunMediaFacts, RunRecord, RunStatus, RunSummary, RunTimings } from '../../shared/contract/runs';
import type { WorkbenchError } from '../../shared/contract/errors';
import type { ChatCompletion, ChatUsage } from '../../shared/wire/chat';
import { runMetrics } from '../../shared/run-metrics';

/** The columns a RunSummary needs, qualified with the `runs` table name. */
export const SUMMARY_COLUMNS = [
  'id',
  'created_at',
  'endpoint',
  'model',
  'status',
  'connection_id',
  'connection_name',
  'is_sandbox',
  'prompt_preview',
  'output_preview',
  'cost_ticks',
  'total_ms',
  'total_tokens',
  'deferred_request_id',
  // Small JSON the list's metrics (first token, tokens per second, tokens) are computed from.
  'timings_json',
  'usage_json',
  'group_id',
  'group_kind',
]
  .map((c) => `runs.${c}`)
  .concat([
    // A media run's facts: what it kept in the gallery (its own items, not the inputs it sent),
    // found by the gallery's run index; an upload's size from its small FileObject output.
    `CASE WHEN runs.endpoint LIKE 'images.%' OR runs.endpoint LIKE 'videos.%' THEN (
       SELECT json_object('count', count(*), 'width', max(g.width), 'height', max(g.height), 'duration', max(g.duration), 'bytes', sum(g.bytes))
       FROM gallery_items g WHERE g.run_id = runs.id AND g.origin != 'input') END AS media_json`,
    `CASE WHEN runs.endpoint = 'files.upload' THEN json_extract(runs.output_json, '$.bytes') END AS file_bytes`,
  ])
  .join(', ');

/** The extra columns a full RunRecord needs. */
export const RECORD_COLUMNS = `${SUMMARY_COLUMNS}, runs.retries, runs.error_json, runs.request_json, runs.response_json, runs.output_json, runs.event_count`;

export interface SummaryRow {
  id: string;
  created_at: number;
  endpoint: string;
  model: string;
  status: string;
  connection_id: string;
  connection_name: string;
  is_sandbox: number;
  prompt_preview: string;
  output_preview: string;
  cost_ticks: number | null;
  total_ms: number | null;
  total_tokens: number | null;
  deferred_request_id: string | null;
  timings_json: string;
  usage_json: string | null;
  group_id: string | null;
  group_kind: string | null;
  media_json: string | null;
  file_bytes: number | null;
}

export interface RecordRow extends SummaryRow {
  retries: number;
  error_json: string | null;
  request_json: string;
  response_json: string | null;
  output_json: string | null;
  event_count: number;
}

/** A summary row as the renderer sees it. */
export function toSummary(row: SummaryRow): RunSummary {
  const endpoint = row.endpoint as Endpoint;
  const timings = JSON.parse(row.timings_json) as RunTimings;
  const usage = parseOrNull<ChatUsage>(row.usage_json);
  return {
    id: row.id,
    createdAt: row.created_at,
    endpoint: row.endpoint as Endpoint,
    model: row.model,
    status: row.status as RunStatus,
    connectionId: row.connection_id,
    connectionName: row.connection_name,
    isSandbox: row.is_sandbox === 1,
    promptPreview: row.prompt_preview,
    outputPreview: row.output_preview,
    costTicks: row.cost_ticks,
    totalMs: row.total_ms,
    totalTokens: row.total_tokens,
    deferredRequestId: row.deferred_request_id,
    metrics: runMetrics({ endpoint, timings, usage, costTicks: row.cost_ticks }),
    group: row.group_id && row.group_kind === 'compare' ? { kind: 'compare', id: row.group_id } : null,
    made: mediaFacts(endpoint, row),
  };
}

const numberOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The facts History's row shows for a media run; null for text runs. */
function mediaFacts(endpoint: Endpoint, row: SummaryRow): RunMediaFacts | null {
  if (endpoint === 'files.upload') {
    const bytes = numberOrNull(row.file_bytes);
    return { kind: 'file', count: bytes === null ? 0 : 1, width: null, height: null, duration: null, bytes };
  }
  if (row.media_json === null || row.media_json === undefined) return null;
  const m = JSON.parse(row.media_json) as Record<string, unknown>;
  return {
    kind: endpoint.startsWith('videos.') ? 'video' : 'images',
    count: numberOrNull(m.count) ?? 0,
    width: numberOrNull(m.width),
    height: numberOrNull(m.height),
    duration: numberOrNull(m.duration),
    bytes: numberOrNull(m.bytes),
  };
}

/** A full row, JSON columns parsed. */
export function toRecord(row: RecordRow): RunRecord {
  return {
    ...toSummary(row),
    request: JSON.parse(row.request_json) as CapturedRequest,
    response: parseOrNull<CapturedResponse>(row.response_json),
    eventCount: row.event_count,
    output: parseOrNull<ChatCompletion>(row.output_json),
    error: parseOrNull<WorkbenchError>(row.error_json),
    timings: JSON.parse(row.timings_json) as RunTimings,
    usage: parseOrNull<ChatUsage>(row.usage_json),
    retries: row.retries,
  };
}

/** JSON for a nullable column: null stays SQL NULL. */
export function jsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

function parseOrNull<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}
