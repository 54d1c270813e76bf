/**
 * The history repository: every request the app makes is a run, inserted as it starts and
 * updated as it streams and finishes. Full-text indexing of prompt and output is kept in step by
 * triggers (migration 0002); searching lives in run-search.ts and is re-exported here.
 */
import type { WorkbenchError } from '../../shared/contract/errors';
import type { CapturedRequest, CapturedResponse, Endpoint, RunGroup, RunOutput, RunRecord, RunStatus, RunTimings } from '../../shared/contract/runs';
import type { ChatCompletion, ChatUsage } from '../../shared/wire/chat';
import { addBlobRef, releaseBlobRef } from './blob-rows';
import type { BlobInfo } from './blobs';
import type { Db } from './db';
import { prepare, timed } from './query';
import { outputPreviewOf, previewOf, promptPreviewOf } from './run-previews';
import { jsonOrNull, RECORD_COLUMNS, toRecord, type RecordRow } from './run-rows';

export { runModels, searchRuns } from './run-search';

/** A run as it starts, before anything has come back. */
export interface NewRun {
  id: string;
  createdAt: number;
  endpoint: Endpoint;
  model: string;
  connectionId: string;
  connectionName: string;
  isSandbox: boolean;
  request: CapturedRequest;
  /** What full-text search indexes as the prompt: all message texts joined. */
  promptText: string;
  /** What History lists as the prompt; default: the last user message of a chat body, else promptText. */
  promptPreview?: string;
  /** Usually 'pending'. */
  status: RunStatus;
  deferredRequestId?: string | null;
  /** The comparison this run is part of (Compare's columns). */
  group?: RunGroup | null;
  /** Blobs `request` refers to (already on disk); referenced in the same transaction as the insert. */
  blobs?: ReadonlyArray<BlobInfo & { mime: string }>;
}

/** The parts of a run that change as it progresses; omitted fields are left as they are. */
export interface RunUpdate {
  status?: RunStatus;
  response?: CapturedResponse | null;
  /** The interface's own answer object (a ChatCompletion for chat). */
  output?: RunOutput | null;
  /** What full-text search indexes as the output: the assembled text including reasoning. */
  outputText?: string;
  /** The text History lists as the answer's start, for interfaces whose output is not a chat completion. */
  outputPreview?: string;
  error?: WorkbenchError | null;
  timings?: RunTimings;
  usage?: ChatUsage | null;
  costTicks?: number | null;
  retries?: number;
  deferredRequestId?: string | null;
  model?: string;
}

/** What a run left pending by a crash is marked with at the next start. */
export const INTERRUPTED_ERROR: WorkbenchError = {
  code: 'stream_incomplete',
  message: 'The app stopped while this run was in progress, so its answer may be missing or cut short. Send it again to get a full answer.',
};

/** Records a new run (and its blob references, in one transaction). Throws if a run with the same id exists. */
export function insertRun(db: Db, run: NewRun): void {
  if (run.blobs?.length) {
    db.transaction(() => {
      insertRunRow(db, run);
      for (const blob of run.blobs ?? []) addBlobRef(db, blob, run.createdAt);
    })();
  } else insertRunRow(db, run);
}

function insertRunRow(db: Db, run: NewRun): void {
  const timings: RunTimings = { startedAt: run.createdAt, ttfbMs: null, totalMs: null };
  timed(db, 'insertRun', () =>
    prepare(
      db,
      // The group columns are named only for a grouped run: the migration tests record runs at
      // schema versions from before groups (0009).
      `INSERT INTO runs (id, created_at, updated_at, endpoint, model, status, connection_id, connection_name,
         is_sandbox, deferred_request_id, prompt_preview, timings_json, prompt_text, request_json${run.group ? ', group_id, group_kind' : ''})
       VALUES (@id, @createdAt, @createdAt, @endpoint, @model, @status, @connectionId, @connectionName,
         @isSandbox, @deferredRequestId, @promptPreview, @timings, @promptText, @request${run.group ? ', @groupId, @groupKind' : ''})`,
    ).run({
      id: run.id,
      createdAt: run.createdAt,
      endpoint: run.endpoint,
      model: run.model,
      status: run.status,
      connectionId: run.connectionId,
      connectionName: run.connectionName,
      isSandbox: run.isSandbox ? 1 : 0,
      deferredRequestId: run.deferredRequestId ?? null,
      promptPreview: run.promptPreview !== undefined ? previewOf(run.promptPreview) : promptPreviewOf(run.request.body, run.promptText),
      timings: JSON.stringify(timings),
      promptText: run.promptText,
      request: JSON.stringify(run.request),
      ...(run.group ? { groupId: run.group.id, groupKind: run.group.kind } : {}),
    }),
  );
}

/**
 * Applies `update` to run `id` in one statement (atomic, full-text index included).
 * Returns false when there is no such run (for example the user deleted it mid-stream).
 */
export function updateRun(db: Db, id: string, update: RunUpdate, now: number = Date.now()): boolean {
  const sets: string[] = ['updated_at = @now'];
  const params: Record<string, unknown> = { id, now };
  const set = (column: string, value: unknown): void => {
    sets.push(`${column} = @${column}`);
    params[column] = value;
  };
  if (update.status !== undefined) set('status', update.status);
  if (update.model !== undefined) set('model', update.model);
  if (update.response !== undefined) set('response_json', jsonOrNull(update.response));
  if (update.output !== undefined) set('output_json', jsonOrNull(update.output));
  if (update.outputText !== undefined) set('output_text', update.outputText);
  if (update.outputPreview !== undefined) set('output_preview', previewOf(update.outputPreview));
  else if (update.outputText !== undefined || isChatAnswer(update.output)) {
    // Derived only from what can say it: the indexed text, or a chat answer's content. Any other
    // output alone (a realtime call's, an image's) says nothing about its preview, which is kept:
    // re-pricing a recovered call must not wipe what History lists.
    set('output_preview', outputPreviewOf(update.output as ChatCompletion | null | undefined, update.outputText));
  }
  if (update.error !== undefined) set('error_json', jsonOrNull(update.error));
  if (update.timings !== undefined) {
    set('timings_json', JSON.stringify(update.timings));
    set('total_ms', update.timings.totalMs);
  }
  if (update.usage !== undefined) {
    set('usage_json', jsonOrNull(update.usage));
    set('total_tokens', update.usage?.total_tokens ?? null);
  }
  if (update.costTicks !== undefined) set('cost_ticks', update.costTicks);
  if (update.retries !== undefined) set('retries', update.retries);
  if (update.deferredRequestId !== undefined) set('deferred_request_id', update.deferredRequestId);
  const sql = `UPDATE runs SET ${sets.join(', ')} WHERE id = @id`;
  return timed(db, 'updateRun', () => prepare(db, sql).run(params).changes > 0);
}

/** The whole record of run `id`, or null. */
export function getRun(db: Db, id: string): RunRecord | null {
  const row = timed(db, 'getRun', () =>
    prepare<[string], RecordRow>(db, `SELECT ${RECORD_COLUMNS} FROM runs WHERE id = ?`).get(id),
  );
  return row ? toRecord(row) : null;
}

/** Of runs `ids`, those in History, oldest first (ties by id); and the ids it does not hold. */
export function orderRuns(db: Db, ids: readonly string[]): { ordered: string[]; missing: string[] } {
  const ordered = timed(db, 'orderRuns', () =>
    prepare<[string], { id: string }>(db, 'SELECT id FROM runs WHERE id IN (SELECT value FROM json_each(?)) ORDER BY created_at, id').all(JSON.stringify(ids)),
  ).map((r) => r.id);
  const found = new Set(ordered);
  return { ordered, missing: ids.filter((id) => !found.has(id)) };
}

/**
 * Deletes run `id` (its search entry and event chunks go with it) and releases the blobs its
 * request referred to, in one transaction. Returns whether it existed.
 */
export function deleteRun(db: Db, id: string): boolean {
  return timed(db, 'deleteRun', () =>
    db.transaction(() => {
      const request = prepare<[string], string>(db, 'SELECT request_json FROM runs WHERE id = ?').pluck().get(id);
      if (request === undefined) return false;
      prepare(db, 'DELETE FROM runs WHERE id = ?').run(id);
      for (const hash of blobHashesIn(request)) releaseBlobRef(db, hash);
      return true;
    })(),
  );
}

/** The blobs a recorded request refers to (`{"$blob": "<hash>", ...}`, see services/request-media.ts). */
export function blobHashesIn(requestJson: string): string[] {
  return [...new Set([...requestJson.matchAll(/"\$blob":"([0-9a-f]{64})"/g)].map((m) => m[1]))];
}

/**
 * At start-up: runs left 'pending' by a crash become 'incomplete' with an error saying the app
 * stopped during the run — except runs an unfinished durable job carries (a deferred chat), which
 * the job queue resumes. Returns how many were marked.
 */
export function markInterruptedRuns(db: Db, now: number): number {
  return timed(db, 'markInterruptedRuns', () =>
    prepare(
      db,
      `UPDATE runs SET status = 'incomplete', updated_at = ?, error_json = ?
       WHERE status = 'pending'
         AND id NOT IN (SELECT run_id FROM jobs WHERE run_id IS NOT NULL AND state IN ('queued', 'running', 'retrying'))`,
    ).run(now, JSON.stringify(INTERRUPTED_ERROR)).changes,
  );
}

/** A chat completion with a text answer in its first choice: the one output a preview is derived from alone. */
function isChatAnswer(output: RunOutput | null | undefined): boolean {
  const content = (output as ChatCompletion | null | undefined)?.choices?.[0]?.message?.content;
  return typeof content === 'string' && content.trim() !== '';
}
