/**
 * The `video` job: one video generation, edit or extension, from the create to the MP4 in the
 * gallery, run by the durable queue whatever happens to windows. Like `deferred-chat`:
 *
 *   - the job row and its History run are written in one transaction before the create leaves;
 *   - the create carries `Idempotency-Key: <job id>`, so a job resumed before it saved the
 *     service's request id asks again and gets the same request back, not a second video;
 *   - the request id is saved the moment it arrives; a resumed job with one only polls;
 *   - polls back off from 1 s to 5 s; transient failures (network, 429, 5xx, a download cut
 *     midway) are waited out by the queue for as long as they last, then it polls again (the
 *     request id is kept); only a definite answer (a refusal, a failed video) fails the job.
 *
 * On `done` the video is downloaded at once (result URLs expire) to a temporary file, then added
 * to the gallery whole, so a gallery item is never half a video. The job's data keeps the
 * recorded request (inline media as blob references, never megabytes in the jobs table); it is
 * rehydrated only for the create.
 */
import { mkdir, unlink } from 'node:fs/promises';
import { z } from 'zod';
import type { WorkbenchError } from '../../../shared/contract/errors';
import type { GalleryItem, GalleryOrigin } from '../../../shared/contract/gallery';
import { VIDEO_MODES, type VideoMode } from '../../../shared/families/videos/contract';
import type { VideoFileOutput } from '../../../shared/wire/videos';
import { toWorkbenchError } from '../../api/errors';
import { redactHeaders } from '../../api/http-headers';
import { sleep as realSleep } from '../../api/sleep';
import { createVideo, downloadVideo, getVideo, videoTempPath, type VideoDownloadOptions, type VideoPoll } from '../../api/videos';
import { JobFailedError, jobFailureOf, type Job, type JobContext, type JobHandler } from '../../jobs/job-queue';
import type { BlobStore } from '../../store/blobs';
import type { Db } from '../../store/db';
import { appendRunEvents } from '../../store/run-events';
import { updateRun, type RunUpdate } from '../../store/runs';
import type { ConnectionsService } from '../../services/connections-service';
import { rehydrate } from '../../services/request-media';
import { EXPIRED_REASON, MODERATED_REASON, NO_URL_REASON } from './video-reasons';

export const VIDEO_KIND = 'video';

/** The header that makes the create safe to repeat. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

const DataSchema = z.object({
  runId: z.string().min(1),
  /** The card the job belongs to (a Retry is a new job on the same card). */
  cardId: z.string().min(1),
  connectionId: z.string().min(1),
  mode: z.enum(VIDEO_MODES),
  /** The wire body as recorded (inline media as blob references). */
  body: z.looseObject({}),
  /** The user's extra headers, sent again on a resumed create (redacted once created). */
  headers: z.record(z.string(), z.string()),
  requestId: z.string().min(1).nullable(),
  startedAt: z.number(),
  prompt: z.string(),
  model: z.string(),
  duration: z.number().nullable(),
  aspectRatio: z.string().nullable(),
  resolution: z.string().nullable(),
  /** The inputs in words, for the card ("image: cat.png", "video: gallery item"). */
  inputs: z.array(z.string()),
  /** Gallery items the inputs were (an edit's or extension's video, an animated image). */
  sourceIds: z.array(z.string()),
  /** The gallery item once the video is in; a resume with it skips the download. */
  galleryId: z.string().nullable().optional(),
  /** The card was dismissed (hidden from the job centre; its video stays in the gallery). */
  dismissed: z.boolean().optional(),
  retries: z.number().int().optional(),
  /** Time to the create's answer (ms), for the run's timings. */
  ttfbMs: z.number().nullable().optional(),
  /**
   * The request as the page's form can show it again (inputs as gallery items, Files ids or
   * URLs; no headers): "Edit and resend" after a refusal. Absent on jobs made before.
   */
  request: z.looseObject({}).optional(),
});

export type VideoJobData = z.infer<typeof DataSchema>;

export type VideoOutcome = 'done' | 'moderated' | 'expired';

/** What a finished job keeps (the job's result). */
export interface VideoJobResult {
  requestId: string;
  outcome: VideoOutcome;
  galleryId: string | null;
  costTicks: number | null;
  storageError: string | null;
  fileOutput: VideoFileOutput | null;
  /** Seconds, as the service said. */
  duration: number | null;
  model: string | null;
  /** Why there is no video (moderated, expired). */
  message: string | null;
  polls: number;
}

/** The progress detail of each stage (the job centre shows it). */
export type VideoProgressDetail =
  | { stage: 'creating'; attempt: number }
  | { stage: 'pending'; requestId: string; progress: number | null; polls: number; nextPollAt: number | null }
  | { stage: 'downloading'; requestId: string; receivedBytes: number; totalBytes: number | null };

/** What the gallery must offer the job (GalleryService.add, once merged, behind this). */
export interface NewGalleryVideo {
  /** The whole downloaded MP4 (the gallery stores it in the blob store). */
  path: string;
  bytes: number;
  mime: 'video/mp4';
  origin: GalleryOrigin;
  prompt: string;
  model: string | null;
  duration: number | null;
  name: string;
  jobId: string;
  runId: string | null;
  sourceIds: string[];
}

export interface VideoGallery {
  addVideo(video: NewGalleryVideo): Promise<GalleryItem>;
  get(id: string): Promise<GalleryItem | null>;
}

export interface VideoJobDeps {
  db: Db;
  connections: ConnectionsService;
  blobs: BlobStore;
  gallery: VideoGallery;
  /** Where downloads are written before they join the gallery (same disk as the blob store). */
  tempDir: string;
  /** Links a `file_output` to Files (a FileRecord, refreshed from the service when it can). */
  linkFile?: (connectionId: string, fileOutput: VideoFileOutput, runId: string | null) => Promise<void>;
  log?: (line: string) => void;
  /** First poll interval (default 1 s; tests shorten it), growing by half each poll up to `maxPollMs` (5 s). */
  pollMs?: number;
  maxPollMs?: number;
  /** Largest MP4 accepted (default 1 GiB). */
  maxDownloadBytes?: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Tests: how the result URL is fetched. */
  download?: Pick<VideoDownloadOptions, 'openSink' | 'clientFor'>;
}

export const DEFAULT_MAX_VIDEO_BYTES = 1024 * 1024 * 1024;

const ORIGIN: Record<VideoMode, GalleryOrigin> = { generate: 'generated', edit: 'edited', extend: 'extended' };

/** A short name for the gallery item, from the prompt. */
function nameOf(prompt: string, mode: VideoMode): string {
  const words = prompt.trim().replace(/\s+/g, ' ').slice(0, 60).replace(/[^\p{L}\p{N} _-]/gu, '').trim();
  return `${words || (mode === 'generate' ? 'video' : `${mode}ed video`)}.mp4`;
}

/** The run's History preview of a finished video. */
function previewOf(result: VideoJobResult): string {
  if (result.outcome === 'moderated') return 'Withheld by moderation';
  if (result.outcome === 'expired') return 'Made, but its link expired before the download';
  const parts = [`Video${result.duration !== null ? ` · ${result.duration} s` : ''}`];
  if (result.storageError) parts.push(`storage failed: ${result.storageError}`);
  if (result.fileOutput) parts.push(`stored as ${result.fileOutput.filename}`);
  return parts.join(' · ');
}

export function videoJob(deps: VideoJobDeps): JobHandler<VideoJobData, VideoJobResult & { raw: unknown }> {
  const now = deps.now ?? Date.now;
  const wait = deps.sleep ?? realSleep;
  const firstPoll = deps.pollMs ?? 1000;
  const maxPoll = Math.max(firstPoll, deps.maxPollMs ?? 5000);
  const log = deps.log ?? (() => undefined);

  /** One line of the run's event log (the inspector's Events tab): a state the job went through. */
  const record = (job: Job<VideoJobData>, event: string, data: unknown): void => {
    appendRunEvents(deps.db, job.runId ?? job.data.runId, [{ t: Math.max(0, now() - job.data.startedAt), event, data: JSON.stringify(data) }]);
  };

  async function create(job: Job<VideoJobData>, ctx: JobContext<VideoJobData>): Promise<string> {
    const { client } = deps.connections.resolve(job.data.connectionId);
    ctx.progress('creating', { stage: 'creating', attempt: ctx.attempt } satisfies VideoProgressDetail);
    const body = await rehydrate(deps.blobs, job.data.body);
    const created = await createVideo(client, job.data.mode, body, { signal: ctx.signal, headers: { ...job.data.headers, [IDEMPOTENCY_HEADER]: job.id } });
    if (!created.ok) {
      if (!ctx.signal.aborted) record(job, 'video.create_failed', { status: created.error.status, message: created.error.message, retries: created.retries });
      throw jobFailureOf(created.error, created.meta?.headers, now());
    }
    ctx.answered();
    const id = created.value.request_id;
    const response = { status: created.meta.status, headers: created.meta.headers, body: created.value };
    // Created: a resume only polls, so secret-looking header values need not stay in the jobs table.
    ctx.save({ requestId: id, ttfbMs: created.meta.ttfbMs, retries: (job.data.retries ?? 0) + created.retries, headers: redactHeaders(job.data.headers) }, (db) => {
      if (job.runId) updateRun(db, job.runId, { deferredRequestId: id, response, timings: { startedAt: job.data.startedAt, ttfbMs: created.meta.ttfbMs, totalMs: null } }, now());
    });
    record(job, 'video.created', created.value);
    return id;
  }

  async function poll(job: () => Job<VideoJobData>, requestId: string, ctx: JobContext<VideoJobData>): Promise<{ poll: Exclude<VideoPoll, { state: 'pending' }>; polls: number }> {
    const { client } = deps.connections.resolve(job().data.connectionId);
    let delay = firstPoll;
    let polls = 0;
    let last = '';
    for (;;) {
      if (ctx.signal.aborted) throw new JobFailedError({ code: 'cancelled', message: 'Stopped.' });
      const result = await getVideo(client, requestId, { signal: ctx.signal });
      polls += 1;
      if (!result.ok && result.error.status === 404 && result.error.kind === 'http') {
        // The request id was saved, so the service made it once: it no longer has it.
        throw new JobFailedError({
          ...toWorkbenchError(result.error),
          code: 'not_found',
          message: `The service no longer knows video request ${requestId} (it may have expired on its side): ${result.error.message} Retry makes a new video.`,
        });
      }
      if (!result.ok) throw jobFailureOf(result.error, result.meta?.headers, now());
      const value = result.value;
      // A `done` is not the end of an outage yet: the download may be what keeps failing.
      if (value.state !== 'done') ctx.answered();
      const seen = value.state === 'pending' ? `pending:${value.progress}` : value.state;
      if (seen !== last) record(job(), `video.${value.state}`, value.raw);
      last = seen;
      if (value.state !== 'pending') return { poll: value, polls };
      ctx.progress('pending', { stage: 'pending', requestId, progress: value.progress, polls, nextPollAt: now() + delay } satisfies VideoProgressDetail);
      await wait(delay, ctx.signal);
      delay = Math.min(maxPoll, Math.round(delay * 1.5));
    }
  }

  /** The MP4 into the gallery (downloaded whole first); the gallery item's id. */
  async function keep(job: Job<VideoJobData>, ctx: JobContext<VideoJobData>, requestId: string, done: Extract<VideoPoll, { state: 'done' }>): Promise<GalleryItem | 'expired'> {
    await mkdir(deps.tempDir, { recursive: true, mode: 0o700 });
    const temp = videoTempPath(deps.tempDir);
    ctx.progress('downloading', { stage: 'downloading', requestId, receivedBytes: 0, totalBytes: null } satisfies VideoProgressDetail);
    let lastReport = 0;
    // `done.url` is the URL as the service gave it; what the download returns has the key masked.
    const { scrubber } = deps.connections.resolve(job.data.connectionId).client;
    const got = await downloadVideo(done.url!, temp, {
      signal: ctx.signal,
      scrubber,
      maxBytes: deps.maxDownloadBytes ?? DEFAULT_MAX_VIDEO_BYTES,
      ...deps.download,
      onProgress: (receivedBytes, totalBytes) => {
        // At most a few progress writes a second, whatever the chunk size.
        if (now() - lastReport < 250 && receivedBytes !== totalBytes) return;
        lastReport = now();
        ctx.progress('downloading', { stage: 'downloading', requestId, receivedBytes, totalBytes } satisfies VideoProgressDetail);
      },
    });
    if (!got.ok) {
      const e = got.error;
      record(job, 'video.download_failed', { status: e.status, message: e.message });
      // The link answered but refused: it expired (or was revoked) before the app got to it.
      if (e.kind === 'http' && e.status !== null && e.status >= 400 && e.status < 500 && e.status !== 408 && e.status !== 429) return 'expired';
      if (e.kind === 'cancelled') throw new JobFailedError({ code: 'cancelled', message: 'Stopped.' });
      if (e.kind === 'file' || e.code === 'too_large') throw new JobFailedError({ ...toWorkbenchError(e), message: `The video was made but could not be saved: ${e.message}` });
      // A cut download, a stall, a 5xx: the next attempt polls again and downloads again.
      throw jobFailureOf({ ...e, kind: e.kind === 'protocol' ? 'network' : e.kind }, got.meta?.headers, now());
    }
    ctx.answered();
    try {
      const item = await deps.gallery.addVideo({
        path: got.value.path,
        bytes: got.value.bytes,
        mime: 'video/mp4',
        origin: ORIGIN[job.data.mode],
        prompt: job.data.prompt,
        model: done.model ?? job.data.model,
        duration: done.duration,
        name: nameOf(job.data.prompt, job.data.mode),
        jobId: job.id,
        runId: job.runId,
        sourceIds: job.data.sourceIds,
      });
      // Saved at once: a resume after this point finds the item and does not download again.
      ctx.save({ galleryId: item.id });
      return item;
    } finally {
      await unlink(got.value.path).catch(() => undefined);
    }
  }

  return {
    kind: VIDEO_KIND,
    parseData: (data) => DataSchema.parse(data),
    resultOf: ({ raw: _raw, ...result }) => result,
    // Overload, rate limits, no network and a broken download are waited out, however long.
    backoff: { firstMs: 2000, maxMs: 30_000 },

    async run(job, ctx) {
      let current = job;
      const latest = (): Job<VideoJobData> => current;
      const saveAndTrack: JobContext<VideoJobData> = {
        ...ctx,
        signal: ctx.signal,
        save: (partial, also) => {
          ctx.save(partial, also);
          current = { ...current, data: { ...current.data, ...partial } };
        },
      };
      const requestId = current.data.requestId ?? (await create(current, saveAndTrack));
      const { poll: end, polls } = await poll(latest, requestId, saveAndTrack);
      if (end.state === 'failed') {
        const error: WorkbenchError = { code: 'api_error', message: `The service could not make the video (${end.code}): ${end.message}`, serviceCode: end.code };
        throw new JobFailedError(error);
      }
      const base = { requestId, costTicks: null, storageError: null, fileOutput: null, duration: null, model: null, galleryId: current.data.galleryId ?? null, polls, raw: end.raw };
      if (end.state === 'expired') return { ...base, outcome: 'expired', message: EXPIRED_REASON };
      const finished = { ...base, costTicks: end.costTicks, storageError: end.storageError, fileOutput: end.fileOutput, duration: end.duration, model: end.model };
      if (end.fileOutput && deps.linkFile) {
        await deps.linkFile(current.data.connectionId, end.fileOutput, current.runId).catch((error: unknown) => log(`video ${job.id}: could not link ${end.fileOutput!.file_id} to Files: ${String(error)}`));
      }
      if (!end.respectModeration || !end.url) return { ...finished, outcome: 'moderated', message: end.respectModeration ? NO_URL_REASON : MODERATED_REASON };
      if (current.data.galleryId && (await deps.gallery.get(current.data.galleryId))) return { ...finished, outcome: 'done', message: null };
      const kept = await keep(current, saveAndTrack, requestId, end);
      if (kept === 'expired') return { ...finished, outcome: 'expired', message: EXPIRED_REASON };
      return { ...finished, outcome: 'done', galleryId: kept.id, message: null };
    },

    finish(db, job, outcome) {
      if (!job.runId) return;
      const timings = { startedAt: job.data.startedAt, ttfbMs: job.data.ttfbMs ?? null, totalMs: Math.max(0, now() - job.data.startedAt) };
      let update: RunUpdate;
      if (outcome.state === 'completed') {
        const r = outcome.result;
        update = {
          status: r.outcome === 'expired' ? 'error' : 'completed',
          error: r.outcome === 'expired' ? { code: 'not_found', message: EXPIRED_REASON, requestId: r.requestId } : null,
          response: { status: 200, headers: {}, body: r.raw },
          output: (r.raw && typeof r.raw === 'object' ? r.raw : { status: r.outcome }) as Record<string, unknown>,
          outputText: job.data.prompt,
          outputPreview: previewOf(r),
          costTicks: r.costTicks,
        };
        if (r.model) update.model = r.model;
      } else if (outcome.state === 'failed') update = { status: outcome.error.code === 'cancelled' ? 'cancelled' : 'error', error: outcome.error };
      else update = { status: 'cancelled', error: null };
      updateRun(db, job.runId, { retries: job.data.retries ?? 0, timings, ...update }, now());
    },
  };
}
