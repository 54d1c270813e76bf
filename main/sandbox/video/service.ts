/**
 * The sandbox's video jobs end to end: a create is checked completely (body, model, inputs'
 * bytes) before its `request_id` is handed out; its video is encoded in the background at once
 * (identical requests share the bytes); a poll answers on the sandbox clock: pending with rising
 * progress until the job's ready time (and at 99 while the encode or the delivery is still
 * running), then done with the URL, or failed when a failure was asked for. See README "Video".
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { VideoErrorCode, VideoResult } from '../../../shared/wire/videos';
import type { Clock } from '../clock';
import { SandboxError } from '../errors';
import type { FileStore } from '../files/store';
import { imageSize, webpStandIn, type RgbaImage } from '../media/image-codec';
import type { InputContext, OwnMediaLookup } from '../media/input';
import { deliver } from './delivery';
import { VideoEncoder, type EncodeJob } from './encoder';
import type { PictureInput } from './encoder-worker';
import type { PictureRef, ScenePlan } from './frames';
import { resolvePicture, resolveVideo } from './inputs';
import { VideoMedia } from './media';
import { costTicks, editPlan, extensionPlan, generationPlan, planKey, planSeconds, renderSeconds, resolutionOf, sha256 } from './plan';
import { checkVideoRequest, type VideoKind } from './request';
import { awaitsDelivery, VideoJobStore, type VideoJob } from './store';

/** How long a result URL works after the job's ready time (sandbox clock). */
export const VIDEO_URL_LIFETIME_MS = 60 * 60 * 1000;

/** A prompt containing this (any case) makes a done job without a video (spec Errors 6). */
export const MODERATION_TRIGGER = '[moderate]';

/** A failure asked for with the `x-sandbox-video-fail` header: a spec error code, or `overload` (503 at create). */
export type VideoFailRequest = VideoErrorCode | 'overload';

/** How long a poll waits for the upload / store of a job that just became done before answering 99. */
const DELIVERY_WAIT_MS = 2_000;

const FAILURE_MESSAGES: Record<VideoErrorCode, string> = {
  invalid_argument: 'The video could not be generated from these inputs: the prompt and inputs were rejected while generating.',
  permission_denied: 'Your team is not permitted to generate this video.',
  failed_precondition: 'The video could not be generated: an input was no longer usable when generation started.',
  service_unavailable: 'The video engine was overloaded while generating this video. Try again in a few minutes.',
  internal_error: 'The video engine failed while generating this video. Try again.',
};

export interface VideoServiceOptions {
  clock: Clock;
  files: FileStore;
  log: (line: string) => void;
  /** Where the bytes go (`<stateDir>/videos`); default a temporary folder removed on close. */
  mediaDir?: string;
  /** Bytes of videos kept in memory (see media.ts); default 256 MiB. */
  maxMemoryBytes?: number;
}

export interface CreateContext {
  team: string;
  fail: VideoFailRequest | null;
  inputs: InputContext;
}

export type MediaLookup = { state: 'unknown' } | { state: 'not-ready' } | { state: 'expired'; at: number } | { state: 'ready'; bytes: Buffer };

export class VideoService {
  readonly jobs = new VideoJobStore();
  readonly media: VideoMedia;
  private readonly encoder: VideoEncoder;
  private readonly clock: Clock;
  private readonly files: FileStore;
  private readonly log: (line: string) => void;
  private readonly deliveries = new Map<string, Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(options: VideoServiceOptions) {
    this.clock = options.clock;
    this.files = options.files;
    this.log = options.log;
    this.media = new VideoMedia({ dir: options.mediaDir, maxMemoryBytes: options.maxMemoryBytes });
    this.encoder = new VideoEncoder({ log: options.log });
  }

  /** Checks and accepts a create; resolves to its request id. */
  async create(kind: VideoKind, body: unknown, ctx: CreateContext): Promise<string> {
    const req = checkVideoRequest(kind, body);
    if (ctx.fail === 'overload') {
      throw new SandboxError(503, 'The video engine is overloaded (service_unavailable) and cannot take this request now; retry in a few seconds. (Injected by x-sandbox-video-fail: overload.)');
    }
    let plan: ScenePlan;
    if (kind === 'generation') {
      const background = req.image ? await resolvePicture(req.image.value, req.image.field, ctx.inputs, this.media) : null;
      const tiles: PictureRef[] = [];
      for (const [i, entry] of req.referenceImages.entries()) tiles.push(await resolvePicture(entry, `reference_images[${i}]`, ctx.inputs, this.media));
      plan = generationPlan({
        prompt: req.prompt,
        aspectRatio: req.aspectRatio,
        resolution: req.resolution,
        duration: req.duration,
        background,
        tiles,
        voices: req.voices,
        salt: req.model.id,
      });
    } else {
      const input = await resolveVideo(req.video, ctx.inputs, this.jobs);
      if (kind === 'edit' && !input.plan && input.info.durationSeconds > 15.5) {
        throw new SandboxError(400, `video is ${input.info.durationSeconds.toFixed(1)} s long; the sandbox edits videos of up to 15 seconds`);
      }
      plan = kind === 'edit' ? editPlan(input, req.prompt) : extensionPlan(input, req.prompt, req.duration);
    }
    const duration = kind === 'generation' ? req.duration : planSeconds(plan);
    const resolution = kind === 'generation' ? req.resolution : resolutionOf(plan.width, plan.height);
    const createdMs = this.clock.now();
    const readyAtMs = createdMs + Math.round(renderSeconds(duration, resolution) * 1000);
    const failure = ctx.fail ? { code: ctx.fail, message: `${FAILURE_MESSAGES[ctx.fail]} (Injected by x-sandbox-video-fail: ${ctx.fail}.)` } : null;
    const job: VideoJob = {
      id: randomUUID(),
      team: ctx.team,
      kind,
      model: req.model.id,
      createdMs,
      readyAtMs,
      duration,
      resolution,
      costTicks: costTicks(duration, resolution),
      plan,
      mediaKey: planKey(plan),
      token: randomBytes(24).toString('base64url'),
      urlExpiresAtMs: readyAtMs + VIDEO_URL_LIFETIME_MS,
      moderated: req.prompt.toLowerCase().includes(MODERATION_TRIGGER),
      failure,
      // A failure shows halfway through the job's time.
      failAtMs: failure ? createdMs + Math.round((readyAtMs - createdMs) / 2) : null,
      uploadUrl: req.uploadUrl,
      storage: req.storage,
      delivery: null,
    };
    this.jobs.add(job);
    this.log(`video ${job.id} created (${kind}, ${plan.width}x${plan.height}, ${duration} s${job.moderated ? ', moderated' : ''}${failure ? `, fails with ${failure.code}` : ''})`);
    this.start(job);
    const live = this.jobs.liveKeys(this.clock.now());
    this.media.sweep(live.videos, live.sources);
    return job.id;
  }

  /** The Video result of `id` for `team` now, or null when the team has no such job. */
  async poll(id: string, team: string, origin: string): Promise<VideoResult | null> {
    const job = this.jobs.get(id, team);
    if (!job) return null;
    const now = this.clock.now();
    if (job.failure && job.failAtMs !== null && now >= job.failAtMs) return { status: 'failed', error: { ...job.failure } };
    const pending = (progress: number): VideoResult => ({ status: 'pending', progress, model: job.model });
    if (now < job.readyAtMs) return pending(Math.min(99, Math.max(0, Math.floor((99 * (now - job.createdMs)) / (job.readyAtMs - job.createdMs)))));
    if (job.moderated) return this.done(job, origin);
    // Past its URL's lifetime the bytes may be gone: the result stands as it was (with its expired URL).
    if (now >= job.urlExpiresAtMs && !awaitsDelivery(job)) return this.done(job, origin);
    const media = this.media.state(job.mediaKey);
    if (media.state === 'failed') {
      job.failure = { code: 'internal_error', message: `The video engine failed while generating this video: ${media.message}` };
      job.failAtMs = now;
      this.jobs.changed();
      return { status: 'failed', error: { ...job.failure } };
    }
    if (media.state !== 'ready') {
      // Encoding is slower than the clock (or the bytes were lost): it stays at 99 until they are there.
      if (media.state === 'missing') this.encode(job);
      return pending(99);
    }
    if (!job.delivery) {
      const delivering = this.deliver(job);
      await Promise.race([delivering, new Promise((resolve) => setTimeout(resolve, DELIVERY_WAIT_MS).unref())]);
      if (!job.delivery) return pending(99);
    }
    return this.done(job, origin);
  }

  /** The bytes behind a result URL's token, or why there are none. */
  async mediaOf(token: string): Promise<MediaLookup> {
    const job = this.jobs.byToken(token);
    if (!job || job.moderated || job.failure) return { state: 'unknown' };
    const now = this.clock.now();
    if (now >= job.urlExpiresAtMs) return { state: 'expired', at: job.urlExpiresAtMs };
    if (now < job.readyAtMs) return { state: 'not-ready' };
    const bytes = await this.media.get(job.mediaKey);
    return bytes ? { state: 'ready', bytes } : { state: 'not-ready' };
  }

  /** For media/input.ts: a `/media/videos/<token>.mp4` URL of this sandbox used as an input. */
  ownMedia(pathname: string): OwnMediaLookup {
    const m = /^\/media\/videos\/([A-Za-z0-9_-]+)\.mp4$/.exec(pathname);
    const job = m ? this.jobs.byToken(m[1]) : undefined;
    if (!job || job.moderated || job.failure) return { state: 'unknown' };
    const now = this.clock.now();
    if (now >= job.urlExpiresAtMs) return { state: 'expired' };
    const bytes = now >= job.readyAtMs ? this.media.getSync(job.mediaKey) : null;
    return bytes ? { state: 'found', bytes, mime: 'video/mp4' } : { state: 'unknown' };
  }

  /** After a restore: encode what is missing and deliver what is due. */
  resume(): void {
    for (const job of this.jobs.all()) this.start(job);
    const live = this.jobs.liveKeys(this.clock.now());
    this.media.sweep(live.videos, live.sources);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await this.encoder.close();
    this.jobs.clear();
    this.media.close();
  }

  private done(job: VideoJob, origin: string): VideoResult {
    // Moderated: done, but without a video (spec Errors 6).
    const url = job.moderated ? '' : `${origin}/media/videos/${job.token}.mp4`;
    const video: NonNullable<VideoResult['video']> = { url, duration: job.duration, respect_moderation: !job.moderated };
    const d = job.delivery;
    if (d?.storageError) video.storage_error = d.storageError;
    if (d?.file) {
      const f = d.file;
      video.file_output = { file_id: f.fileId, filename: f.filename };
      if (f.expiresAt !== null) video.file_output.expires_at = f.expiresAt;
      if (f.publicPath) {
        video.file_output.public_url = `${origin}${f.publicPath}`;
        video.file_output.public_url_expires_at = f.publicUrlExpiresAt;
      }
      if (f.publicUrlError) video.file_output.public_url_error = f.publicUrlError;
    }
    return { status: 'done', progress: 100, model: job.model, video, usage: { cost_in_usd_ticks: job.costTicks } };
  }

  /** Starts whatever the job still needs: its encode, and its delivery when it is due. */
  private start(job: VideoJob): void {
    if (job.moderated || job.failure) return;
    const now = this.clock.now();
    const needsBytes = now < job.urlExpiresAtMs || awaitsDelivery(job);
    if (needsBytes && this.media.state(job.mediaKey).state === 'missing') this.encode(job);
    if (awaitsDelivery(job)) {
      // Delivered when it is due even if nobody polls (on the real clock; a poll after the clock was moved does it too).
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        if (this.clock.now() >= job.readyAtMs && this.media.state(job.mediaKey).state === 'ready') void this.deliver(job);
      }, Math.max(0, job.readyAtMs - now) + 10);
      timer.unref();
      this.timers.add(timer);
    }
  }

  private encode(job: VideoJob): void {
    const { plan, mediaKey } = job;
    void this.media
      .produce(mediaKey, async () => {
        const started = Date.now();
        const mp4 = await this.encoder.encode(await this.encodeJob(plan));
        this.jobs.rememberMade(sha256(mp4), plan);
        this.log(`video ${mediaKey.slice(0, 12)} encoded: ${plan.width}x${plan.height}, ${plan.frames} frames, ${mp4.length} bytes in ${Date.now() - started} ms`);
        return mp4;
      })
      .then(() => {
        if (this.closed) return;
        const state = this.media.state(mediaKey);
        if (state.state === 'failed') this.log(`video ${job.id}: encoding failed: ${state.message}`);
        if (state.state === 'ready' && job.delivery === null && this.clock.now() >= job.readyAtMs) void this.deliver(job);
      });
  }

  private async encodeJob(plan: ScenePlan): Promise<EncodeJob> {
    const picture = async (ref: PictureRef): Promise<PictureInput> => {
      const bytes = await this.media.getSource(ref.key);
      if (!bytes) throw new Error('an input picture is no longer kept by the sandbox');
      // WebP has no decoder here: a stand-in gradient of its shape (see image-codec.ts), drawn
      // small (the encoder scales it to the frame): at full size a 50 MP header cost 200 MB here.
      if (ref.mime === 'image/webp') return { picture: webpPicture(bytes) };
      return { mime: ref.mime, bytes };
    };
    const background = plan.background ? await picture(plan.background) : null;
    const tiles: PictureInput[] = [];
    for (const t of plan.tiles) tiles.push(await picture(t));
    return { plan, background, tiles };
  }

  /** Uploads / stores the result once (concurrent callers share it); sets job.delivery. */
  private deliver(job: VideoJob): Promise<void> {
    const running = this.deliveries.get(job.id);
    if (running) return running;
    const run = (async () => {
      if (job.uploadUrl === null && job.storage === null) {
        job.delivery = { storageError: null, file: null };
        return;
      }
      const bytes = await this.media.get(job.mediaKey);
      if (!bytes || this.closed) return;
      const delivery = await deliver(job, bytes, { files: this.files, clock: this.clock, log: this.log });
      if (this.closed) return;
      job.delivery = delivery;
      this.jobs.changed();
      if (delivery.storageError) this.log(`video ${job.id}: ${delivery.storageError}`);
    })().finally(() => this.deliveries.delete(job.id));
    this.deliveries.set(job.id, run);
    return run;
  }
}

/** A WebP input's stand-in, at most 64 pixels on its long side, in the picture's shape. */
function webpPicture(bytes: Uint8Array): RgbaImage {
  const size = imageSize(bytes) ?? { width: 1, height: 1 };
  const scale = Math.min(1, 64 / Math.max(size.width, size.height));
  return webpStandIn(bytes, Math.max(1, Math.round(size.width * scale)), Math.max(1, Math.round(size.height * scale)));
}
