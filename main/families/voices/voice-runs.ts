/**
 * History for custom-voice changes: each create, update and delete is a run (endpoints
 * `voices.create` / `voices.update` / `voices.delete`) inserted as pending before the request
 * leaves and finished with the answer or the error, so a failed clone is in History too.
 */
import { createReadStream } from 'node:fs';
import type { ApiResult } from '../../api/client';
import { toWorkbenchError, type ApiError } from '../../api/errors';
import { WorkbenchFailure } from '../../../shared/contract/errors';
import type { CapturedRequest } from '../../../shared/contract/runs';
import type { Endpoint } from '../../../shared/families';
import type { BlobInfo, BlobStore } from '../../store/blobs';
import type { Db } from '../../store/db';
import type { ResolvedConnection } from '../../services/connections-service';
import { newRunId, RunRecorder } from '../../services/run-recorder';

export interface RecordedCall {
  endpoint: Endpoint;
  request: CapturedRequest;
  /** What History lists as the prompt (the voice's name or id). */
  prompt: string;
  /** Blobs the run keeps (a clone's reference clip). */
  blobs?: ReadonlyArray<BlobInfo & { mime: string }>;
}

/** Runs `send` as a recorded run; a failure is recorded, then thrown as a WorkbenchFailure. */
export async function recordedCall<T>(
  db: Db,
  connection: ResolvedConnection,
  call: RecordedCall,
  send: () => Promise<ApiResult<T>>,
  outputPreview: (value: T) => string,
  now: () => number = Date.now,
): Promise<{ value: T; runId: string }> {
  const startedAt = now();
  const recorder = RunRecorder.start(db, {
    id: newRunId(),
    createdAt: startedAt,
    endpoint: call.endpoint,
    model: '',
    connectionId: connection.profile.id,
    connectionName: connection.profile.name,
    isSandbox: connection.isSandbox,
    request: call.request,
    promptText: call.prompt,
    promptPreview: call.prompt,
    status: 'pending',
    ...(call.blobs ? { blobs: call.blobs } : {}),
  });
  const result = await send();
  const timings = { startedAt, ttfbMs: result.meta?.ttfbMs ?? null, totalMs: Math.round(result.totalMs) };
  const response = result.meta ? { status: result.meta.status, headers: result.meta.headers, body: result.ok ? (result.value as unknown) : (result.error.body ?? null) } : null;
  if (result.ok) {
    const text = outputPreview(result.value);
    recorder.finish({ status: 'completed', response, output: result.value as unknown as Record<string, unknown>, outputText: text, outputPreview: text, timings, retries: result.retries });
    return { value: result.value, runId: recorder.id };
  }
  const error = toWorkbenchError((result as { error: ApiError }).error);
  recorder.finish({ status: error.code === 'cancelled' ? 'cancelled' : 'error', response, output: null, outputText: '', error, timings, retries: result.retries });
  throw new WorkbenchFailure(error);
}

/** Keeps the file at `path` in the blob store. */
export async function keepFile(blobs: BlobStore, path: string, mime: string): Promise<BlobInfo & { mime: string }> {
  return { ...(await blobs.put(createReadStream(path))), mime };
}
