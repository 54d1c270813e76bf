/**
 * Video jobs: durable (the job is written before the create leaves), polled by main with backoff,
 * resumed after a restart without a second create, and downloaded into the blob store the moment
 * they finish (the service's URLs expire), so a finished video plays offline. The page lists them,
 * follows `videos.changed`, and can cancel (stop following), retry (the same card, a new create)
 * and extend a finished one.
 */
import { z } from 'zod';
import { VIDEO_ASPECT_RATIOS, VIDEO_LIMITS, VIDEO_RESOLUTIONS, type VideoFileOutput } from '../../wire/videos';
import { call, event } from '../../contract/define';
import type { WorkbenchError } from '../../contract/errors';
import { GalleryItemIdSchema, type GalleryItem } from '../../contract/gallery';
import { MediaSourceSchema } from '../images/contract';
import { JobIdSchema, type JobWait } from '../../contract/jobs';
import { ConnectionIdSchema, ExtraHeadersSchema } from '../../contract/text';

export const VIDEO_MODES = ['generate', 'edit', 'extend'] as const;
export type VideoMode = (typeof VIDEO_MODES)[number];

/** A video input: an uploaded file, a gallery item, a dropped/picked file, or an .mp4 URL. */
export const VideoSourceSchema = MediaSourceSchema;

const duration = (min: number, max: number) =>
  z.number().int('whole seconds').min(min, `at least ${min} s`).max(max, `at most ${max} s`);

export const VideoCreateSchema = z
  .object({
    connectionId: ConnectionIdSchema.optional(),
    mode: z.enum(VIDEO_MODES),
    model: z.string().trim().min(1, 'choose a model').max(200),
    /** Required except for image-to-video, where the video can come from the image alone. */
    prompt: z.string().trim().max(100_000).default(''),
    /** generate: image-to-video. */
    image: MediaSourceSchema.optional(),
    /** generate: reference-to-video. */
    referenceImages: z.array(MediaSourceSchema).max(10).optional(),
    /** generate: preset voice ids (models that take audio). */
    referenceAudios: z.array(z.string().trim().min(1).max(100)).max(VIDEO_LIMITS.maxReferenceAudios, `at most ${VIDEO_LIMITS.maxReferenceAudios} reference voices`).optional(),
    /** edit / extend: the video to change or continue. */
    video: MediaSourceSchema.optional(),
    aspectRatio: z.enum(VIDEO_ASPECT_RATIOS).optional(),
    resolution: z.enum(VIDEO_RESOLUTIONS).optional(),
    /** generate 1–15 (default 8); extend 2–10 (default 6); ignored by edit. */
    duration: duration(VIDEO_LIMITS.durationMin, VIDEO_LIMITS.durationMax).optional(),
    output: z.object({ uploadUrl: z.string().trim().url('a signed URL').max(8192) }).strict().optional(),
    storage: z
      .object({
        filename: z.string().trim().min(1, 'name the file to store the video as (e.g. heron.mp4)').max(255),
        expiresAfter: z.number().int().min(1).max(VIDEO_LIMITS.storageExpiresAfterMax, 'at most 30 days (2,592,000 s)').nullable().optional(),
        publicUrl: z.boolean().optional(),
      })
      .strict()
      .optional(),
    user: z.string().max(256).optional(),
    /** Extra request headers (the sandbox's `x-sandbox-video-fail`): the app's own are refused, as for text. */
    headers: ExtraHeadersSchema.optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    const need = (ok: boolean, path: string, message: string): void => {
      if (!ok) ctx.addIssue({ code: 'custom', path: [path], message });
    };
    if (v.mode === 'generate') {
      need(v.video === undefined, 'video', 'a generation takes no video; choose Edit or Extend');
      need(v.prompt !== '' || v.image !== undefined, 'prompt', 'write a prompt (or give an image to animate)');
      need(v.prompt !== '' || !(v.referenceImages?.length || v.referenceAudios?.length), 'prompt', 'a reference-to-video needs a prompt');
    } else {
      need(v.video !== undefined, 'video', 'choose the video to ' + (v.mode === 'edit' ? 'edit' : 'extend'));
      need(v.prompt !== '', 'prompt', v.mode === 'extend' ? 'say what happens next' : 'say what to change');
      need(v.image === undefined && !v.referenceImages?.length && !v.referenceAudios?.length, 'image', 'images and voices apply to generations only');
      if (v.mode === 'extend' && v.duration !== undefined)
        need(v.duration >= VIDEO_LIMITS.extensionDurationMin && v.duration <= VIDEO_LIMITS.extensionDurationMax, 'duration', `an extension is ${VIDEO_LIMITS.extensionDurationMin}–${VIDEO_LIMITS.extensionDurationMax} s`);
    }
  });
export type VideoCreateInput = z.input<typeof VideoCreateSchema>;

/**
 * Where a job is: `creating` (written, the create is being sent), `pending` (the service is
 * making it), `downloading` (done; the bytes are coming into the blob store), `waiting` (the
 * service cannot be reached or is overloaded: the job waits it out, however long, see
 * `VideoJob.waiting`), then `done`,
 * `failed` (the service said so, or the create was refused), `moderated` (done without a video),
 * `expired` (done, but the URL expired before the download) or `cancelled` (the user stopped
 * following it; the service may still make it).
 */
export const VIDEO_JOB_STATES = ['creating', 'pending', 'downloading', 'waiting', 'done', 'failed', 'moderated', 'expired', 'cancelled'] as const;
export type VideoJobState = (typeof VIDEO_JOB_STATES)[number];

export interface VideoJob {
  /** The durable job's id (jobs.*). */
  id: string;
  /** The card: stays the same across Retry (a retry is a new job on the same card). */
  cardId: string;
  mode: VideoMode;
  state: VideoJobState;
  connectionId: string;
  model: string;
  prompt: string;
  /** What was asked, for the card: duration, aspect ratio, resolution, inputs in words. */
  duration: number | null;
  aspectRatio: string | null;
  resolution: string | null;
  inputs: string[];
  /** The service's request id, once the create answered. */
  requestId: string | null;
  /** 0–100; null before the first poll. */
  progress: number | null;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
  costTicks: number | null;
  /**
   * The service's `error.code` (or the app's for a refused create) and a plain-language reason:
   * this `reason` is words for the card, in place of WorkbenchError's machine-readable one.
   */
  error: (Omit<WorkbenchError, 'reason'> & { serviceCode?: string; reason: string }) | null;
  storageError: string | null;
  fileOutput: VideoFileOutput | null;
  /** The downloaded video, once in the gallery. */
  video: GalleryItem | null;
  runId: string | null;
  /** Attempts of the create/poll so far, and when the next poll is due (ms since epoch). */
  attempt: number;
  nextPollAt: number | null;
  /**
   * While `waiting`: since when, how many attempts failed in a row, why (for a person, and the
   * last failure's own message), and when the next attempt starts (null: it is under way).
   */
  waiting: (JobWait & { message: string }) | null;
  /**
   * The request as the form can show it again ("Edit and resend" after a refusal): its inputs as
   * gallery items, Files ids or URLs. Null for jobs made before the app kept it.
   */
  request: VideoCreateInput | null;
}

export const VideoJobIdSchema = z.object({ id: JobIdSchema }).strict();

export const videosContract = {
  /** Writes the job (and its History run) first, then sends the create; answers once written. */
  create: call<VideoJob>()(VideoCreateSchema),
  /** Newest first. */
  list: call<VideoJob[]>()(z.object({ limit: z.number().int().min(1).max(500).default(100) }).strict().optional()),
  get: call<VideoJob>()(VideoJobIdSchema),
  /** Stop following it. */
  cancel: call<VideoJob>()(VideoJobIdSchema),
  /**
   * A failed, expired or cancelled job again, on the same card (a new create with the same
   * request); a waiting job's next attempt now ("Retry now").
   */
  retry: call<VideoJob>()(VideoJobIdSchema),
  /** Forget a finished card (its video stays in the gallery). */
  dismiss: call<{ dismissed: boolean }>()(VideoJobIdSchema),
  /** Finished video of a gallery item back as the job that made it (the gallery's "show job"). */
  ofItem: call<VideoJob | null>()(z.object({ id: GalleryItemIdSchema }).strict()),
  changed: event<VideoJob>(),
};
