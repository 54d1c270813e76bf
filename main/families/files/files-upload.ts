/**
 * One upload, from the user's file reference to a File on the service: the size checked before
 * anything is sent, the run (endpoint `files.upload`, prompt = the file name) and the file's row
 * written in one transaction before the first byte leaves, progress with speed sent to the page,
 * and an end that leaves nothing half-done: a cancel whose bytes the service accepted anyway is
 * deleted there; a dropped connection records the upload as failed, never as uploaded.
 */
import { randomBytes } from 'node:crypto';
import type { ApiError } from '../../api/errors';
import { toWorkbenchError } from '../../api/errors';
import { formatBytes, oversizeReason } from '../../../shared/byte-size';
import { WorkbenchFailure } from '../../../shared/contract/errors';
import type { FileRecord, FileUploadChunk, MultipartDescription } from '../../../shared/families/files/contract';
import type { CapturedRequest } from '../../../shared/contract/runs';
import { FILE_LIMITS, type FileObject } from '../../../shared/wire/files';
import { completeUpload, getFileByKey, insertUpload, setFileStatus } from '../../store/files';
import type { ResolvedConnection } from '../../services/connections-service';
import type { FilesServiceDeps } from './files-deps';
import { newRunId, RunRecorder } from '../../services/run-recorder';
import { TransferRate } from './transfer-rate';

export const FILES_PATH = '/v1/files';

/** The app's own key for a file row. */
export function newFileKey(): string {
  return `lf_${randomBytes(12).toString('base64url')}`;
}

export interface UploadContext {
  signal: AbortSignal;
  emit(chunk: FileUploadChunk): void;
}

/** The recorded request: the multipart parts in wire order, the file described, never its bytes. */
export function describeUpload(connection: ResolvedConnection, file: { name: string; size: number; type: string }, expiresAfter?: number): CapturedRequest {
  const base = connection.client.describe({ method: 'POST', path: FILES_PATH });
  const body: MultipartDescription = {
    multipart: [
      ...(expiresAfter !== undefined ? [{ name: 'expires_after', value: String(expiresAfter) }] : []),
      { name: 'file', filename: file.name, contentType: file.type || 'application/octet-stream', bytes: file.size },
    ],
  };
  return { ...base, headers: { ...base.headers, 'content-type': 'multipart/form-data' }, body };
}

/** Progress is sent at most this often (the last one always). */
const PROGRESS_EVERY_MS = 100;

export async function uploadFile(
  deps: FilesServiceDeps,
  input: { connectionId?: string; ref: string; expiresAfter?: number },
  ctx: UploadContext,
): Promise<FileRecord> {
  const now = deps.now ?? Date.now;
  const connection = deps.connections.resolve(input.connectionId);
  const file = deps.userFiles.resolve(input.ref);
  const tooBig = oversizeReason(file.name, file.size, deps.maxUploadBytes ?? FILE_LIMITS.maxFileBytes);
  if (tooBig) throw new WorkbenchFailure({ code: 'invalid_input', message: tooBig });

  const key = newFileKey();
  const startedAt = now();
  const request = describeUpload(connection, file, input.expiresAfter);
  const recorder = deps.db.transaction(() => {
    const rec = RunRecorder.start(deps.db, {
      id: newRunId(),
      createdAt: startedAt,
      endpoint: 'files.upload',
      model: '',
      connectionId: connection.profile.id,
      connectionName: connection.profile.name,
      isSandbox: connection.isSandbox,
      request,
      promptText: file.name,
      promptPreview: file.name,
      status: 'pending',
    });
    insertUpload(deps.db, { key, connectionId: connection.profile.id, filename: file.name, bytes: file.size, contentType: file.type, runId: rec.id, now: startedAt });
    return rec;
  })();
  const record = (): FileRecord => getFileByKey(deps.db, key, now())!;
  deps.emitChanged(record());
  ctx.emit({ type: 'started', key, runId: recorder.id, filename: file.name, total: file.size });

  const rate = new TransferRate(now);
  let lastEmit = 0;
  let sent = 0;
  // The client counts the whole multipart body (a little over the file); the page is shown the file.
  const onProgress = (done: number, total: number | null): void => {
    sent = total && total > 0 ? Math.min(file.size, Math.round((done / total) * file.size)) : Math.min(done, file.size);
    rate.add(sent);
    const t = now();
    if (sent < file.size && t - lastEmit < PROGRESS_EVERY_MS) return;
    lastEmit = t;
    ctx.emit({ type: 'progress', sent, total: file.size, bytesPerSecond: rate.bytesPerSecond() });
  };

  const result = await deps.api.uploadFile(
    connection.client,
    { path: file.path, filename: file.name, contentType: file.type, ...(input.expiresAfter !== undefined ? { expiresAfter: input.expiresAfter } : {}) },
    { signal: ctx.signal, onProgress },
  );
  const timings = { startedAt, ttfbMs: result.meta?.ttfbMs ?? null, totalMs: Math.round(result.totalMs) };
  const response = result.meta ? { status: result.meta.status, headers: result.meta.headers, body: result.ok ? result.value : (result.error.body ?? null) } : null;

  if (result.ok && !ctx.signal.aborted) {
    completeUpload(deps.db, key, result.value, now());
    // A staged copy (browser mode) is no longer needed; a failed or cancelled one is kept for Retry.
    deps.userFiles.release(input.ref);
    recorder.finish({ status: 'completed', response, output: result.value as unknown as Record<string, unknown>, ...outputText(result.value), timings, retries: result.retries });
    const done = record();
    deps.emitChanged(done);
    return done;
  }

  if (ctx.signal.aborted || (!result.ok && result.error.kind === 'cancelled')) {
    // The last bytes may have reached the service as the user pressed Cancel: it then holds a
    // whole file the user said they did not want. Delete it, so Cancel means nothing is left.
    const created = result.ok ? result.value : null;
    const cleanup = created ? await deps.api.deleteFile(connection.client, created.id) : null;
    const message = !created
      ? `Cancelled after ${formatBytes(sent)} of ${formatBytes(file.size)}; nothing was kept on the service.`
      : cleanup && !cleanup.ok
        ? `Cancelled, but the service had already received the whole file (${created.id}) and deleting it failed: ${cleanup.error.message}`
        : `Cancelled as the upload finished: the service had received the whole file, and its copy (${created.id}) was deleted, so nothing was kept.`;
    setFileStatus(deps.db, key, 'cancelled', message);
    recorder.finish({ status: 'cancelled', response, output: null, outputText: '', outputPreview: message, timings, retries: result.retries });
    const cancelled = record();
    deps.emitChanged(cancelled);
    return cancelled;
  }

  // The client's words already say how far it got and to try again (main/api/files.ts).
  const error = toWorkbenchError((result as { error: ApiError }).error);
  setFileStatus(deps.db, key, 'failed', error.message);
  recorder.finish({ status: 'error', response, output: null, outputText: '', error, timings, retries: result.retries });
  deps.emitChanged(record());
  throw new WorkbenchFailure(error);
}

/**
 * An upload the user cancelled while the page was still staging it (browser mode): main never
 * sent a byte, so the service has nothing; the run (cancelled, with the request it would have
 * made) and the file's row are written so History lists every upload the user started.
 */
export function recordCancelledBeforeSending(
  deps: FilesServiceDeps,
  input: { connectionId?: string; name: string; size: number; type: string; staged: number; expiresAfter?: number },
): FileRecord {
  const now = (deps.now ?? Date.now)();
  const connection = deps.connections.resolve(input.connectionId);
  const key = newFileKey();
  const message = `Cancelled while it was handed to the workbench (${formatBytes(input.staged)} of ${formatBytes(input.size)}); nothing was sent to the service and nothing was kept.`;
  deps.db.transaction(() => {
    const rec = RunRecorder.start(deps.db, {
      id: newRunId(),
      createdAt: now,
      endpoint: 'files.upload',
      model: '',
      connectionId: connection.profile.id,
      connectionName: connection.profile.name,
      isSandbox: connection.isSandbox,
      request: describeUpload(connection, { name: input.name, size: input.size, type: input.type }, input.expiresAfter),
      promptText: input.name,
      promptPreview: input.name,
      status: 'pending',
    });
    insertUpload(deps.db, { key, connectionId: connection.profile.id, filename: input.name, bytes: input.size, contentType: input.type, runId: rec.id, now });
    setFileStatus(deps.db, key, 'cancelled', message);
    rec.finish({ status: 'cancelled', response: null, output: null, outputText: '', outputPreview: message, timings: { startedAt: now, ttfbMs: null, totalMs: 0 }, retries: 0 });
  })();
  const record = getFileByKey(deps.db, key, now)!;
  deps.emitChanged(record);
  return record;
}

/** What History indexes and lists as the answer of an upload: the id and the size. */
function outputText(file: FileObject): { outputText: string; outputPreview: string } {
  return { outputText: `${file.id} ${file.filename}`, outputPreview: `${file.id} · ${formatBytes(file.bytes)}` };
}
