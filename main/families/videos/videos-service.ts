/**
 * The video job centre's service: create (inputs resolved, the run and the durable job written
 * together before the create leaves), list (the latest job of each card, newest first), get,
 * cancel (stop following), retry (the same request as a new job on the same card), dismiss and
 * ofItem. A VideoJob is built from the job row, its run and its gallery item; every change of a
 * video job reaches the page as `videos.changed`, and a finished or failed one as a desktop
 * notification (when the shell gives one).
 */
import { randomUUID } from 'node:crypto';
import { WorkbenchFailure } from '../../../shared/contract/errors';
import type { JobSummary } from '../../../shared/contract/jobs';
import type { MediaSource } from '../../../shared/families/images/contract';
import type { Endpoint } from '../../../shared/contract/runs';
import { VideoCreateSchema, type VideoCreateInput, type VideoJob, type VideoJobState, type VideoMode } from '../../../shared/families/videos/contract';
import { VIDEO_LIMITS } from '../../../shared/wire/videos';
import { VIDEO_PATHS } from '../../api/videos';
import { newJobId, type JobQueue } from '../../jobs/job-queue';
import { getBlobRow } from '../../store/blob-rows';
import type { BlobStore } from '../../store/blobs';
import type { Db } from '../../store/db';
import { blobHashesIn, getRun, insertRun, type NewRun } from '../../store/runs';
import { dismissVideoCard, getVideoJobRow, latestVideoJobs, videoJobOfGalleryItem, type VideoJobRow } from '../../store/video-jobs';
import type { ConnectionsService, ResolvedConnection } from '../../services/connections-service';
import { storeRequestMedia } from '../../services/request-media';
import { newRunId } from '../../services/run-recorder';
import { IDEMPOTENCY_HEADER, VIDEO_KIND, type VideoGallery, type VideoJobData, type VideoJobResult, type VideoProgressDetail } from './video-job';
import { videoFailureReason } from './video-reasons';

/** A video input as the wire takes it, with what the card says about it. */
export interface ResolvedVideoInput {
  wire: { url: string } | { file_id: string };
  /** "image: cat.png", "video: gallery item", "file file_123". */
  label: string;
  /** The gallery item it was, if any (the result's `sourceIds`). */
  galleryId: string | null;
}

/**
 * Turns the page's MediaSource into a wire input (main/services/media-sources.ts, once merged,
 * behind this): images JPEG/PNG/WebP, videos MP4; files too large to send inline are refused with
 * the advice to upload them to Files first.
 */
export interface VideoInputResolver {
  resolve(source: MediaSource, want: 'image' | 'video', connection: ResolvedConnection): Promise<ResolvedVideoInput>;
}

/** The largest video sent inline as a data URL; a larger one must be uploaded to Files first. */
export const VIDEO_INLINE_MAX_BYTES = 8 * 1024 * 1024;

export interface VideosServiceDeps {
  db: Db;
  jobs: JobQueue;
  blobs: BlobStore;
  connections: ConnectionsService;
  gallery: VideoGallery;
  inputs: VideoInputResolver;
  emitChanged: (job: VideoJob) => void;
  /** A desktop notification (Electron); absent in browser mode, where the page notifies. */
  notify?: (title: string, body: string) => void;
  log?: (line: string) => void;
  now?: () => number;
}

const ENDPOINT: Record<VideoMode, Endpoint> = { generate: 'videos.generations', edit: 'videos.edits', extend: 'videos.extensions' };
const FINISHED = new Set(['completed', 'failed', 'cancelled']);

/** A parsed request as the job keeps it (what create and retry send). */
type Parsed = ReturnType<typeof VideoCreateSchema.parse>;

export class VideosService {
  private readonly now: () => number;
  /** Jobs whose end was already notified (a finish is reported once). */
  private readonly notified = new Set<string>();
  private emitting: Promise<void> = Promise.resolve();

  constructor(private readonly deps: VideosServiceDeps) {
    this.now = deps.now ?? Date.now;
    // Its own kind's changes only: the queue tells each family of its jobs.
    deps.jobs.subscribe((summary) => this.onJobChanged(summary), { kind: VIDEO_KIND });
  }

  /** Resolves the inputs, writes the run and the job (one transaction), then the job sends the create. */
  async create(input: VideoCreateInput): Promise<VideoJob> {
    const request = VideoCreateSchema.parse(input);
    const connection = this.deps.connections.resolve(request.connectionId);
    const { body, inputs, sourceIds, sources } = await this.wireBody(request, connection);
    // What the form can show again: the same request, its inputs as they can be found later.
    const { headers: _headers, ...asked } = request;
    const resend = { ...asked, ...sources } as VideoCreateInput;
    return this.start(connection, request, body, inputs, sourceIds, `card_${randomUUID().replace(/-/g, '')}`, resend);
  }

  list(input?: { limit?: number }): Promise<VideoJob[]> {
    return Promise.all(latestVideoJobs(this.deps.db, input?.limit ?? 100).map((row) => this.toVideoJob(row)));
  }

  get({ id }: { id: string }): Promise<VideoJob> {
    return this.toVideoJob(this.row(id));
  }

  /** Stops following: the job ends `cancelled` (the service may still make the video). */
  cancel({ id }: { id: string }): Promise<VideoJob> {
    this.row(id);
    this.deps.jobs.cancel(id);
    return this.get({ id });
  }

  /**
   * The same request again as a new job on the same card (a new create: a new Idempotency-Key);
   * for a job waiting out an outage, its next attempt now (the same job: no second video).
   */
  async retry({ id }: { id: string }): Promise<VideoJob> {
    const row = this.row(id);
    if (row.summary.wait && !FINISHED.has(row.summary.state)) {
      this.deps.jobs.retryNow(id);
      return this.get({ id });
    }
    if (!FINISHED.has(row.summary.state)) throw new WorkbenchFailure({ code: 'conflict', message: 'This video is still being made; stop it before trying again.' });
    const stored = row.data as VideoJobData;
    // Secret-looking header values were redacted once the first create answered: not sent as '***'.
    const headers = Object.fromEntries(Object.entries(stored.headers).filter(([, v]) => !/^(bearer\s+)?\*{3,}$/i.test(v.trim())));
    const data: VideoJobData = { ...stored, headers };
    const connection = this.deps.connections.resolve(data.connectionId);
    const jobId = newJobId();
    const previous = getRun(this.deps.db, data.runId);
    const captured = connection.client.describe({ method: 'POST', path: VIDEO_PATHS[data.mode], body: data.body, headers: { ...data.headers, [IDEMPOTENCY_HEADER]: jobId } });
    // The body keeps its blob references: the new run holds them too.
    const blobs = blobHashesIn(JSON.stringify(data.body)).flatMap((hash) => {
      const blob = getBlobRow(this.deps.db, hash);
      return blob ? [{ hash, size: blob.size, mime: blob.mime }] : [];
    });
    const startedAt = this.now();
    const run: NewRun = {
      ...this.newRun(connection, data.mode, data.model, data.prompt, startedAt),
      request: { ...captured, headers: previous ? { ...previous.request.headers, [IDEMPOTENCY_HEADER]: jobId } : captured.headers },
      blobs,
    };
    const next: VideoJobData = { ...data, runId: run.id, requestId: null, startedAt, galleryId: null, dismissed: false, retries: 0, ttfbMs: null };
    this.deps.jobs.add(VIDEO_KIND, next, { id: jobId, runId: run.id, insert: (db) => insertRun(db, run) });
    return this.get({ id: jobId });
  }

  /** Hides a finished card from the job centre (its runs stay in History, its video in the gallery). */
  dismiss({ id }: { id: string }): { dismissed: boolean } {
    const row = this.row(id);
    if (!FINISHED.has(row.summary.state)) throw new WorkbenchFailure({ code: 'conflict', message: 'Stop the job before dismissing its card.' });
    return { dismissed: dismissVideoCard(this.deps.db, (row.data as VideoJobData).cardId) > 0 };
  }

  /** The job that made gallery item `galleryId`, or null. */
  async ofItem({ id: galleryId }: { id: string }): Promise<VideoJob | null> {
    const row = videoJobOfGalleryItem(this.deps.db, galleryId);
    return row ? this.toVideoJob(row) : null;
  }

  /** Every change of a video job (its queue subscription): it reaches the page, and its end the desktop. */
  onJobChanged(summary: JobSummary): void {
    if (summary.kind !== VIDEO_KIND) return;
    const row = getVideoJobRow(this.deps.db, summary.id);
    if (!row) return;
    // Decided now, in the order changes came: the notification is sent once, for the end itself.
    const ends = (summary.state === 'completed' || summary.state === 'failed') && !this.notified.has(summary.id);
    if (ends) this.notified.add(summary.id);
    // Emitted in order: each change waits for the one before (the gallery item is read async).
    this.emitting = this.emitting
      .then(async () => {
        const job = await this.toVideoJob(row);
        this.deps.emitChanged(job);
        if (ends) this.notifyEnd(job);
      })
      .catch((error: unknown) => this.deps.log?.(`videos: a change could not be reported: ${error instanceof Error ? error.message : String(error)}`));
  }

  /** Waits until every change so far has reached the page (tests, shutdown). */
  settled(): Promise<void> {
    return this.emitting;
  }

  private notifyEnd(job: VideoJob): void {
    if (!this.deps.notify) return;
    const what = job.prompt ? `“${job.prompt.length > 80 ? `${job.prompt.slice(0, 79)}…` : job.prompt}”` : `${job.mode} video`;
    const [title, body] =
      job.state === 'done'
        ? ['Video ready', `${what}${job.duration ? ` · ${job.duration} s` : ''}`]
        : job.state === 'moderated'
          ? ['Video withheld', `${what}: withheld by moderation.`]
          : job.state === 'expired'
            ? ['Video link expired', `${what}: ${job.error?.reason ?? ''}`]
            : ['Video failed', `${what}: ${job.error?.reason ?? job.error?.message ?? ''}`];
    try {
      this.deps.notify(title, body);
    } catch (error) {
      this.deps.log?.(`videos: the notification failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private row(id: string): VideoJobRow {
    const row = getVideoJobRow(this.deps.db, id);
    if (!row) throw new WorkbenchFailure({ code: 'not_found', message: `There is no video job ${id}.` });
    return row;
  }

  private newRun(connection: ResolvedConnection, mode: VideoMode, model: string, prompt: string, createdAt: number): Omit<NewRun, 'request'> {
    return {
      id: newRunId(),
      createdAt,
      endpoint: ENDPOINT[mode],
      model,
      connectionId: connection.profile.id,
      connectionName: connection.profile.name,
      isSandbox: connection.isSandbox,
      promptText: prompt,
      promptPreview: prompt || (mode === 'generate' ? 'Video from an image' : `${mode} a video`),
      status: 'pending',
    };
  }

  private async start(
    connection: ResolvedConnection,
    request: Parsed,
    body: Record<string, unknown>,
    inputs: string[],
    sourceIds: string[],
    cardId: string,
    resend: VideoCreateInput,
  ): Promise<VideoJob> {
    const jobId = newJobId();
    const headers = request.headers ?? {};
    const described = connection.client.describe({ method: 'POST', path: VIDEO_PATHS[request.mode], body, headers: { ...headers, [IDEMPOTENCY_HEADER]: jobId } });
    // Inline media (data URLs) go to the blob store first; the run and the job keep references.
    const recorded = await storeRequestMedia(this.deps.blobs, described);
    const startedAt = this.now();
    const run: NewRun = { ...this.newRun(connection, request.mode, request.model, request.prompt, startedAt), request: recorded.request, blobs: recorded.blobs };
    const data: VideoJobData = {
      runId: run.id,
      cardId,
      connectionId: connection.profile.id,
      mode: request.mode,
      body: recorded.request.body as Record<string, unknown>,
      headers,
      requestId: null,
      startedAt,
      prompt: request.prompt,
      model: request.model,
      duration: request.mode === 'edit' ? null : (request.duration ?? (request.mode === 'extend' ? VIDEO_LIMITS.extensionDurationDefault : VIDEO_LIMITS.durationDefault)),
      aspectRatio: request.mode === 'generate' ? (request.aspectRatio ?? null) : null,
      resolution: request.mode === 'generate' ? (request.resolution ?? null) : null,
      inputs,
      sourceIds,
      request: resend as unknown as Record<string, unknown>,
    };
    this.deps.jobs.add(VIDEO_KIND, data, { id: jobId, runId: run.id, insert: (db) => insertRun(db, run) });
    return this.get({ id: jobId });
  }

  /** The wire body of a request (spec "Video (asynchronous)"), its inputs resolved. */
  private async wireBody(
    r: Parsed,
    connection: ResolvedConnection,
  ): Promise<{ body: Record<string, unknown>; inputs: string[]; sourceIds: string[]; sources: Pick<VideoCreateInput, 'image' | 'referenceImages' | 'video'> }> {
    const inputs: string[] = [];
    const sourceIds: string[] = [];
    /** Each input as it can be found again: a dropped or staged file is a gallery item by now. */
    const stable = new Map<MediaSource, MediaSource>();
    const resolve = async (source: MediaSource, want: 'image' | 'video'): Promise<ResolvedVideoInput['wire']> => {
      const resolved = await this.deps.inputs.resolve(source, want, connection);
      inputs.push(resolved.label);
      if (resolved.galleryId) sourceIds.push(resolved.galleryId);
      stable.set(source, resolved.galleryId ? { kind: 'gallery', id: resolved.galleryId } : source);
      return resolved.wire;
    };
    const body: Record<string, unknown> = { model: r.model };
    if (r.prompt !== '') body.prompt = r.prompt;
    if (r.mode === 'generate') {
      if (r.image) body.image = await resolve(r.image, 'image');
      if (r.referenceImages?.length) {
        const refs: unknown[] = [];
        for (const source of r.referenceImages) refs.push(await resolve(source, 'image'));
        body.reference_images = refs;
      }
      if (r.referenceAudios?.length) {
        body.reference_audios = r.referenceAudios.map((voice_id) => ({ voice_id }));
        inputs.push(...r.referenceAudios.map((v) => `voice: ${v}`));
      }
      if (r.aspectRatio) body.aspect_ratio = r.aspectRatio;
      if (r.resolution) body.resolution = r.resolution;
      if (r.duration !== undefined) body.duration = r.duration;
    } else {
      body.video = await resolve(r.video!, 'video');
      if (r.mode === 'extend' && r.duration !== undefined) body.duration = r.duration;
    }
    if (r.output) body.output = { upload_url: r.output.uploadUrl };
    if (r.storage) {
      const storage: Record<string, unknown> = { filename: r.storage.filename };
      if (r.storage.expiresAfter !== undefined) storage.expires_after = r.storage.expiresAfter;
      if (r.storage.publicUrl !== undefined) storage.public_url = r.storage.publicUrl;
      body.storage_options = storage;
    }
    if (r.user) body.user = r.user;
    const again = (source: MediaSource | undefined): MediaSource | undefined => (source ? (stable.get(source) ?? source) : undefined);
    const sources = { image: again(r.image), referenceImages: r.referenceImages?.map((s) => again(s)!), video: again(r.video) };
    return { body, inputs, sourceIds, sources };
  }

  /** The job centre's view of a job row. */
  private async toVideoJob(row: VideoJobRow): Promise<VideoJob> {
    const { summary } = row;
    const data = row.data as VideoJobData;
    const result = row.result as VideoJobResult | null;
    const detail = (summary.progress?.detail ?? null) as VideoProgressDetail | null;
    const finished = FINISHED.has(summary.state);
    let state: VideoJobState;
    if (summary.state === 'completed') state = result?.outcome ?? 'done';
    else if (summary.state === 'failed') state = 'failed';
    else if (summary.state === 'cancelled') state = 'cancelled';
    else if (summary.wait) state = 'waiting';
    else if (summary.progress?.stage === 'downloading') state = 'downloading';
    else state = data.requestId ? 'pending' : 'creating';
    const pending = detail?.stage === 'pending' ? detail : null;
    let error: VideoJob['error'] = null;
    if (summary.state === 'failed' && summary.error) error = { ...summary.error, reason: videoFailureReason(summary.error) };
    else if (state === 'moderated' || state === 'expired') {
      const message = result?.message ?? '';
      error = { code: state === 'expired' ? 'not_found' : 'api_error', message, reason: message, serviceCode: state };
    }
    const galleryId = result?.galleryId ?? data.galleryId ?? null;
    return {
      id: summary.id,
      cardId: data.cardId,
      mode: data.mode,
      state,
      connectionId: data.connectionId,
      model: result?.model ?? data.model,
      prompt: data.prompt,
      duration: result?.duration ?? data.duration,
      aspectRatio: data.aspectRatio,
      resolution: data.resolution,
      inputs: data.inputs,
      requestId: data.requestId ?? result?.requestId ?? null,
      progress: state === 'done' ? 100 : state === 'downloading' ? 99 : (pending?.progress ?? null),
      createdAt: summary.createdAt,
      updatedAt: summary.updatedAt,
      finishedAt: finished ? summary.updatedAt : null,
      costTicks: result?.costTicks ?? null,
      error,
      storageError: result?.storageError ?? null,
      fileOutput: result?.fileOutput ?? null,
      video: galleryId ? await this.deps.gallery.get(galleryId) : null,
      runId: summary.runId,
      attempt: summary.attempt,
      nextPollAt: !finished && pending && !summary.wait ? pending.nextPollAt : null,
      waiting: !finished && summary.wait ? { ...summary.wait, message: summary.error?.message ?? '' } : null,
      request: (data.request as VideoCreateInput | undefined) ?? null,
    };
  }
}
