/**
 * History search: newest-first pages of run summaries with keyset pagination, optionally
 * narrowed by a full-text query over prompt and output and by model, status and endpoint.
 */
import type { HistoryPage, HistorySearchInput } from '../../shared/contract/history';
import type { Db } from './db';
import { ftsMatchQuery } from './fts-query';
import { decodeCursor, encodeCursor } from './history-cursor';
import { prepare, timed } from './query';
import { SUMMARY_COLUMNS, toSummary, type SummaryRow } from './run-rows';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

/** One page of runs matching `input`, newest first, and the cursor of the next page (or null). */
export function searchRuns(db: Db, input: HistorySearchInput): HistoryPage {
  const limit = Math.min(Math.max(Math.trunc(input.limit ?? DEFAULT_LIMIT), 1), MAX_LIMIT);
  const where: string[] = [];
  const params: Record<string, unknown> = { limit: limit + 1 };
  let from = 'runs';
  const match = input.query ? ftsMatchQuery(input.query) : null;
  if (match) {
    from = 'runs_fts JOIN runs ON runs.seq = runs_fts.rowid';
    where.push('runs_fts MATCH @match');
    params.match = match;
  }
  if (input.model) {
    where.push('runs.model = @model');
    params.model = input.model;
  }
  if (input.status) {
    where.push('runs.status = @status');
    params.status = input.status;
  }
  if (input.endpoint) {
    where.push('runs.endpoint = @endpoint');
    params.endpoint = input.endpoint;
  }
  if (input.cursor) {
    const after = decodeCursor(input.cursor);
    where.push('(runs.created_at < @afterCreatedAt OR (runs.created_at = @afterCreatedAt AND runs.id < @afterId))');
    params.afterCreatedAt = after.createdAt;
    params.afterId = after.id;
  }
  const sql =
    `SELECT ${SUMMARY_COLUMNS} FROM ${from}` +
    (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
    ' ORDER BY runs.created_at DESC, runs.id DESC LIMIT @limit';
  const rows = timed(db, 'searchRuns', () => prepare<[Record<string, unknown>], SummaryRow>(db, sql).all(params));
  const items = rows.slice(0, limit).map(toSummary);
  const last = items[items.length - 1];
  const nextCursor = rows.length > limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null;
  return { items, nextCursor };
}

/** Every model that appears in history, sorted, for the History filter. */
export function runModels(db: Db): string[] {
  return timed(db, 'runModels', () =>
    prepare<[], { model: string }>(db, 'SELECT DISTINCT model FROM runs ORDER BY model').all(),
  ).map((row) => row.model);
}
