/**
 * History search: newest-first pages of run summaries with keyset pagination over
 * (created_at, id), optionally narrowed by a full-text query over prompt and output and by
 * model, status and endpoint.
 *
 * A full-text query (a typed prefix already expanded to its words, see resolveMatch) is answered
 * one of two ways, so neither rare nor common words are slow:
 * - few matches (at most SPARSE_MATCHES): join them to `runs` and sort — cheap because few;
 * - many matches: walk `runs` newest first through the (filter, created_at, id) index in growing
 *   chunks and keep the candidates the FTS index confirms within the chunk's rowid range. A page
 *   fills after a few chunks because matches are dense; sorting them all would read every row.
 */
import type { HistoryPage, HistorySearchInput } from '../../shared/contract/history';
import type { SnippetPart } from '../../shared/contract/runs';
import type { Db } from './db';
import { matchExpression, parseSearch, prefixToken } from './fts-query';
import { decodeCursor, encodeCursor, type CursorKey } from './history-cursor';
import { prepare, timed } from './query';
import { SUMMARY_COLUMNS, toSummary, type SummaryRow } from './run-rows';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;
/** Up to this many matches, sorting them is cheaper than scanning history in order. */
const SPARSE_MATCHES = 1_000;
const MAX_CHUNK = 8_192;
/** A typed prefix standing for more words than this is left to FTS's own (slower) prefix match. */
const MAX_PREFIX_TERMS = 64;

interface Filters {
  where: string[];
  params: Record<string, unknown>;
}

/** One page of runs matching `input`, newest first, and the cursor of the next page (or null). */
export function searchRuns(db: Db, input: HistorySearchInput): HistoryPage {
  const limit = Math.min(Math.max(Math.trunc(input.limit ?? DEFAULT_LIMIT), 1), MAX_LIMIT);
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  const match = input.query ? resolveMatch(db, input.query) : null;
  const rows = timed(db, 'searchRuns', () => {
    if (!match) return listPage(db, filtersOf(input, after), limit + 1);
    if (countMatches(db, match, SPARSE_MATCHES + 1) <= SPARSE_MATCHES) return sortedMatches(db, filtersOf(input, after), match, limit + 1);
    return scanForMatches(db, input, after, match, limit + 1);
  });
  const items = rows.slice(0, limit).map(toSummary);
  if (match) {
    timed(db, 'searchSnippets', () => {
      for (const item of items) {
        const snippet = snippetOf(db, match, item.id);
        if (snippet) item.snippet = snippet;
      }
    });
  }
  const last = items[items.length - 1];
  const nextCursor = rows.length > limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null;
  return { items, nextCursor };
}

/** Marks FTS5's snippet() puts around each match: control characters no prompt is made of. */
const MARK_START = '\u0002';
const MARK_END = '\u0003';
/** Tokens of context a snippet shows around the matches. */
const SNIPPET_TOKENS = 16;

/**
 * Why run `id` matched: the passage of its prompt or output (whichever matched best) with the
 * matches marked. One point query per listed run (the FTS index seeks by rowid), not per match.
 */
function snippetOf(db: Db, match: string, id: string): SnippetPart[] | null {
  const text = prepare<[string, string, string, string], string>(
    db,
    `SELECT snippet(runs_fts, -1, ?, ?, '…', ${SNIPPET_TOKENS}) FROM runs_fts
      WHERE runs_fts MATCH ? AND rowid = (SELECT seq FROM runs WHERE id = ?) LIMIT 1`,
  )
    .pluck()
    .get(MARK_START, MARK_END, match, id) as string | undefined;
  return text ? snippetParts(text) : null;
}

/** Splits a marked snippet into plain and matched parts (the page shows them as text, never HTML). */
export function snippetParts(marked: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  for (const [i, piece] of marked.split(MARK_START).entries()) {
    const end = i === 0 ? -1 : piece.indexOf(MARK_END);
    if (end >= 0) {
      if (end > 0) parts.push({ text: piece.slice(0, end), match: true });
      if (end + 1 < piece.length) parts.push({ text: piece.slice(end + 1) });
    } else if (piece) parts.push({ text: piece });
  }
  return parts;
}

/** Every model that appears in history, sorted, for the History filter. */
export function runModels(db: Db): string[] {
  return timed(db, 'runModels', () =>
    prepare<[], { model: string }>(db, 'SELECT DISTINCT model FROM runs ORDER BY model').all(),
  ).map((row) => row.model);
}

/** The MATCH expression for the user's text, with a typed prefix expanded to concrete terms. */
function resolveMatch(db: Db, query: string): string | null {
  const search = parseSearch(query);
  if (!search) return null;
  const token = search.prefix === null ? null : prefixToken(search.prefix);
  if (token === null) return matchExpression(search);
  const terms = prepare<[string, string, number], string>(
    db,
    'SELECT term FROM runs_fts_vocab WHERE term >= ? AND term < ? ORDER BY term LIMIT ?',
  )
    .pluck()
    .all(token, `${token}\u{10FFFF}`, MAX_PREFIX_TERMS + 1);
  // No terms may mean our folding differs from the tokenizer's for this script: let FTS decide.
  return matchExpression(search, terms.length > 0 && terms.length <= MAX_PREFIX_TERMS ? terms : undefined);
}

function filtersOf(input: HistorySearchInput, after: CursorKey | null): Filters {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
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
  if (after) {
    where.push('(runs.created_at < @afterCreatedAt OR (runs.created_at = @afterCreatedAt AND runs.id < @afterId))');
    params.afterCreatedAt = after.createdAt;
    params.afterId = after.id;
  }
  return { where, params };
}

const ORDER = ' ORDER BY runs.created_at DESC, runs.id DESC LIMIT @limit';

function whereClause(where: string[]): string {
  return where.length ? ` WHERE ${where.join(' AND ')}` : '';
}

function listPage(db: Db, filters: Filters, limit: number): SummaryRow[] {
  const sql = `SELECT ${SUMMARY_COLUMNS} FROM runs${whereClause(filters.where)}${ORDER}`;
  return prepare<[Record<string, unknown>], SummaryRow>(db, sql).all({ ...filters.params, limit });
}

function countMatches(db: Db, match: string, cap: number): number {
  const row = prepare<[string, number], { n: number }>(
    db,
    'SELECT count(*) AS n FROM (SELECT rowid FROM runs_fts WHERE runs_fts MATCH ? LIMIT ?)',
  ).get(match, cap);
  return row?.n ?? 0;
}

function sortedMatches(db: Db, filters: Filters, match: string, limit: number): SummaryRow[] {
  const where = ['runs_fts MATCH @match', ...filters.where];
  const sql = `SELECT ${SUMMARY_COLUMNS} FROM runs_fts JOIN runs ON runs.seq = runs_fts.rowid${whereClause(where)}${ORDER}`;
  return prepare<[Record<string, unknown>], SummaryRow>(db, sql).all({ ...filters.params, match, limit });
}

interface Candidate {
  seq: number;
  created_at: number;
  id: string;
}

function scanForMatches(db: Db, input: HistorySearchInput, after: CursorKey | null, match: string, limit: number): SummaryRow[] {
  const found: number[] = [];
  let position = after;
  let chunk = limit * 4;
  for (;;) {
    const filters = filtersOf(input, position);
    const candidates = prepare<[Record<string, unknown>], Candidate>(
      db,
      `SELECT runs.seq, runs.created_at, runs.id FROM runs${whereClause(filters.where)}${ORDER}`,
    ).all({ ...filters.params, limit: chunk });
    if (candidates.length === 0) break;
    let low = Infinity;
    let high = -Infinity;
    for (const c of candidates) {
      low = Math.min(low, c.seq);
      high = Math.max(high, c.seq);
    }
    const matched = new Set(
      // CAST: better-sqlite3 binds numbers as REAL, and FTS5 only seeks on integer rowid bounds.
      prepare<[string, number, number], number>(
        db,
        'SELECT rowid FROM runs_fts WHERE runs_fts MATCH ? AND rowid BETWEEN CAST(? AS INTEGER) AND CAST(? AS INTEGER)',
      )
        .pluck()
        .all(match, low, high),
    );
    for (const c of candidates) {
      if (matched.has(c.seq)) found.push(c.seq);
      if (found.length === limit) break;
    }
    if (found.length === limit || candidates.length < chunk) break;
    const last = candidates[candidates.length - 1];
    position = { createdAt: last.created_at, id: last.id };
    chunk = Math.min(chunk * 2, MAX_CHUNK);
  }
  return summariesInOrder(db, found);
}

function summariesInOrder(db: Db, seqs: number[]): SummaryRow[] {
  if (seqs.length === 0) return [];
  const rows = prepare<[string], SummaryRow & { seq: number }>(
    db,
    `SELECT runs.seq, ${SUMMARY_COLUMNS} FROM runs WHERE runs.seq IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(seqs));
  const bySeq = new Map(rows.map((row) => [row.seq, row]));
  return seqs.flatMap((seq) => bySeq.get(seq) ?? []);
}
