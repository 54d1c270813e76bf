/**
 * The video family (spec "Video (asynchronous)", "Video result", wire-notes §8.2): create a
 * generation, edit or extension (`{request_id}` back), poll `GET /v1/videos/{request_id}`, and
 * download the finished MP4 from its result URL. Polls are read tolerantly: `done` / `pending` /
 * `failed` as the spec says, HTTP 202 as pending (an older revision), `expired` as some clients
 * see it, and a few synonyms; anything else is a `protocol` error naming what came.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { VideoCreated, VideoFileOutput, VideoResult } from '../../shared/wire/videos';
import { ApiClient, type ApiResult, type RequestOptions } from './client';
import type { ApiError } from './errors';
import { downloadToFile, type DownloadedFile, type OpenFileSink } from './download';
import { SecretScrubber } from './secret-scrubber';
import { formatBytes } from '../../shared/byte-size';

export type VideoCreateKind = 'generate' | 'edit' | 'extend';

export const VIDEO_PATHS: Record<VideoCreateKind, string> = {
  generate: '/v1/videos/generations',
  edit: '/v1/videos/edits',
  extend: '/v1/videos/extensions',
};

export function videoResultPath(requestId: string): string {
  return `/v1/videos/${encodeURIComponent(requestId)}`;
}

export interface VideoCallOptions {
  signal?: AbortSignal;
  /** Extra headers: `Idempotency-Key`, the user's custom headers, test faults. */
  headers?: Record<string, string>;
  onRetry?: RequestOptions['onRetry'];
}

/** `POST /v1/videos/{generations|edits|extensions}`; a 2xx without a `request_id` is a `protocol` error. */
export async function createVideo(client: ApiClient, kind: VideoCreateKind, body: object, opts: VideoCallOptions = {}): Promise<ApiResult<VideoCreated>> {
  const result = await client.json<VideoCreated>({ method: 'POST', path: VIDEO_PATHS[kind], body, ...opts });
  if (!result.ok) return result;
  const id = (result.value as Partial<VideoCreated> | null)?.request_id;
  if (typeof id !== 'string' || id.trim() === '') {
    const error: ApiError = {
      kind: 'protocol',
      status: result.meta.status,
      code: null,
      message: 'The service accepted the video request but sent no request_id to collect it with.',
      requestId: result.meta.requestId,
      body: result.value,
    };
    return { ...result, ok: false, error, meta: result.meta };
  }
  return result;
}

/** A poll's answer, read. `raw` is the body as sent (recorded with the run). */
export type VideoPoll =
  | { state: 'pending'; progress: number | null; model: string | null; raw: unknown }
  | {
      state: 'done';
      model: string | null;
      url: string | null;
      duration: number | null;
      respectModeration: boolean;
      storageError: string | null;
      fileOutput: VideoFileOutput | null;
      costTicks: number | null;
      raw: unknown;
    }
  | { state: 'failed'; code: string; message: string; costTicks: number | null; raw: unknown }
  | { state: 'expired'; message: string; raw: unknown };

const PENDING = new Set(['pending', 'queued', 'in_progress', 'processing', 'running']);
const DONE = new Set(['done', 'completed', 'succeeded', 'success']);
const FAILED = new Set(['failed', 'error']);

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^\d+(\.\d+)?$/.test(v) ? Number(v) : null);

function costOf(body: Partial<VideoResult>): number | null {
  const ticks = num(body.usage?.cost_in_usd_ticks);
  return ticks === null ? null : Math.round(ticks);
}

/** Reads a poll body (any 2xx); null when its status is none of the known ones. */
export function readVideoResult(body: unknown, httpStatus: number): VideoPoll | null {
  const b = (body && typeof body === 'object' ? body : {}) as Partial<VideoResult> & Record<string, unknown>;
  const status = str(b.status)?.toLowerCase() ?? (httpStatus === 202 ? 'pending' : null);
  if (status === null) return null;
  if (PENDING.has(status) || (httpStatus === 202 && !DONE.has(status) && !FAILED.has(status))) {
    const p = num(b.progress);
    return { state: 'pending', progress: p === null ? null : Math.max(0, Math.min(99, Math.round(p))), model: str(b.model), raw: body };
  }
  if (DONE.has(status)) {
    const video = (b.video && typeof b.video === 'object' ? b.video : {}) as Partial<NonNullable<VideoResult['video']>>;
    const fo = video.file_output && typeof video.file_output === 'object' && typeof video.file_output.file_id === 'string' ? video.file_output : null;
    return {
      state: 'done',
      model: str(b.model),
      url: str(video.url) || null,
      duration: num(video.duration),
      // Absent means nothing was moderated; only an explicit false says the video was withheld.
      respectModeration: video.respect_moderation !== false,
      storageError: str(video.storage_error) || null,
      fileOutput: fo,
      costTicks: costOf(b),
      raw: body,
    };
  }
  if (FAILED.has(status)) {
    const e = (b.error && typeof b.error === 'object' ? b.error : {}) as { code?: unknown; message?: unknown };
    return { state: 'failed', code: str(e.code) ?? 'internal_error', message: str(e.message) ?? 'The service gave no reason.', costTicks: costOf(b), raw: body };
  }
  if (status === 'expired') {
    const e = (b.error && typeof b.error === 'object' ? b.error : {}) as { message?: unknown };
    return { state: 'expired', message: str(e.message) ?? 'The service says this video request expired.', raw: body };
  }
  return null;
}

/**
 * `GET /v1/videos/{request_id}`, read with readVideoResult. A done poll's `url` is the result URL
 * exactly as the service gave it (what is downloaded; never recorded or shown); `raw` and the
 * rest have the key masked.
 */
export async function getVideo(client: ApiClient, requestId: string, opts: { signal?: AbortSignal } = {}): Promise<ApiResult<VideoPoll>> {
  const { result, unscrubbed } = await client.jsonWithUnscrubbed<unknown>({ method: 'GET', path: videoResultPath(requestId), signal: opts.signal });
  if (!result.ok) return result;
  const poll = readVideoResult(result.value, result.meta.status);
  if (poll?.state === 'done') {
    const sent = readVideoResult(unscrubbed, result.meta.status);
    return { ...result, value: { ...poll, url: sent?.state === 'done' ? sent.url : poll.url } };
  }
  if (poll) return { ...result, value: poll };
  const shown = JSON.stringify(result.value ?? null).slice(0, 200);
  const error: ApiError = { kind: 'protocol', status: result.meta.status, code: null, message: `The service answered the video poll with a status the app does not know: ${shown}`, requestId: result.meta.requestId, body: result.value };
  return { ...result, ok: false, error };
}

export interface VideoDownloadOptions {
  signal?: AbortSignal;
  /** Largest video accepted (bytes); a bigger one is refused before or while it arrives. */
  maxBytes: number;
  onProgress?: (receivedBytes: number, totalBytes: number | null) => void;
  openSink?: OpenFileSink;
  /** Tests: the client used for the result URL (default: a fresh one with no key). */
  clientFor?: (origin: string) => ApiClient;
  /**
   * The connection's scrubber: `url` is fetched as given, but what is returned (messages that
   * quote it, the captured request) has the key masked, as everything recorded or shown.
   */
  scrubber?: SecretScrubber;
}

/**
 * Saves the MP4 at `url` (exactly as given) as `destFile` (never half-written: download.ts). The
 * result URL is the service's CDN (or the sandbox's signed link), not the API: the connection's
 * key is never sent there. Larger than `maxBytes` is refused and nothing is kept. What is
 * returned has `opts.scrubber`'s key masked.
 */
export async function downloadVideo(url: string, destFile: string, opts: VideoDownloadOptions): Promise<ApiResult<DownloadedFile>> {
  return (opts.scrubber ?? SecretScrubber.NONE).value(await fetchVideo(url, destFile, opts));
}

async function fetchVideo(url: string, destFile: string, opts: VideoDownloadOptions): Promise<ApiResult<DownloadedFile>> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    parsed = new URL('invalid:');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    const error: ApiError = { kind: 'protocol', status: null, code: null, message: `The video's URL is not an http(s) address: ${url.slice(0, 120)}`, requestId: null };
    return { ok: false, error, meta: null, captured: { method: 'GET', url: url.slice(0, 200), headers: {}, body: null }, retries: 0, totalMs: 0 };
  }
  const owned = !opts.clientFor;
  const client = opts.clientFor ? opts.clientFor(parsed.origin) : new ApiClient({ baseUrl: parsed.origin, apiKey: null });
  const limit = new AbortController();
  const onAbort = (): void => limit.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  let tooLarge: number | null = null;
  try {
    const result = await downloadToFile(client, `${parsed.pathname}${parsed.search}`, destFile, {
      signal: limit.signal,
      openSink: opts.openSink,
      onProgress: (received, total) => {
        if ((total ?? 0) > opts.maxBytes || received > opts.maxBytes) {
          tooLarge = Math.max(total ?? 0, received);
          limit.abort();
          return;
        }
        opts.onProgress?.(received, total);
      },
    });
    if (!result.ok && tooLarge !== null) {
      const size = tooLarge as number;
      const message = `The video is larger than the app accepts (${formatBytes(size)}, the limit is ${formatBytes(opts.maxBytes)}); nothing was saved.`;
      return { ...result, error: { kind: 'protocol', status: null, code: 'too_large', message, requestId: null } };
    }
    return result;
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    if (owned) await client.dispose();
  }
}

/** A temporary path beside `dir` for one download. */
export function videoTempPath(dir: string): string {
  return join(dir, `video-${randomBytes(8).toString('hex')}.mp4`);
}
