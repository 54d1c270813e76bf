/**
 * Wire shapes of video generation, editing and extension (spec/service.md "Video (asynchronous)",
 * "Video result", Errors 1–7, Limits; wire-notes §8.2). Shared by the client (main/api), the
 * sandbox (main/sandbox/video), the video job kind and the job centre, so every limit is written once.
 */

export const VIDEO_ASPECT_RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4', '3:2', '2:3'] as const;
export type VideoAspectRatio = (typeof VIDEO_ASPECT_RATIOS)[number];

export const VIDEO_RESOLUTIONS = ['480p', '720p', '1080p'] as const;
export type VideoResolution = (typeof VIDEO_RESOLUTIONS)[number];

/** `error.code` of a failed video (spec Errors 1 and 3). */
export const VIDEO_ERROR_CODES = ['invalid_argument', 'permission_denied', 'failed_precondition', 'service_unavailable', 'internal_error'] as const;
export type VideoErrorCode = (typeof VIDEO_ERROR_CODES)[number];

export const VIDEO_STATUSES = ['pending', 'done', 'failed'] as const;
export type VideoStatus = (typeof VIDEO_STATUSES)[number];

/** Input types image-to-video accepts. */
export const VIDEO_IMAGE_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

export const VIDEO_LIMITS = {
  durationMin: 1,
  durationMax: 15,
  durationDefault: 8,
  extensionDurationMin: 2,
  extensionDurationMax: 10,
  extensionDurationDefault: 6,
  maxReferenceAudios: 3,
  /** `reference_images` entries; the spec does not say, the sandbox and the form use this. */
  maxReferenceImages: 10,
  /** Largest input video (edits, extensions) in bytes; the spec does not say, the sandbox uses this. */
  maxInputVideoBytes: 100 * 1024 * 1024,
  /** `storage_options.expires_after`, seconds (30 days). */
  storageExpiresAfterMax: 2_592_000,
} as const;

/** `image` / `reference_images[]` entry: `url` (alias `image_url`) or `file_id`, never both. */
export interface VideoImageInput {
  url?: string;
  image_url?: string;
  file_id?: string | null;
}

/** `video` of edits and extensions: an `.mp4` URL or an uploaded video's `file_id`, never both. */
export interface VideoInput {
  url?: string;
  file_id?: string | null;
}

export interface VideoOutput {
  /** Signed URL; the result is uploaded there by HTTP PUT. */
  upload_url: string;
}

export interface VideoStorageOptions {
  filename: string;
  /** Seconds from now, at most 2,592,000; none means no expiry. */
  expires_after?: number | null;
  /** The object variant's shape is not shown by the spec. */
  public_url?: boolean | Record<string, unknown>;
}

/** `POST /v1/videos/generations` body. */
export interface VideoGenerationRequest {
  model?: string | null;
  prompt?: string;
  image?: VideoImageInput;
  reference_images?: VideoImageInput[];
  reference_audios?: { voice_id: string }[];
  aspect_ratio?: VideoAspectRatio;
  resolution?: VideoResolution;
  /** 1–15, default 8; a numeric string is accepted; `seconds` is an alias. */
  duration?: number | string | null;
  seconds?: number | string | null;
  output?: VideoOutput;
  storage_options?: VideoStorageOptions;
  user?: string | null;
}

/** `POST /v1/videos/edits` body (duration, aspect ratio and resolution are ignored). */
export interface VideoEditRequest {
  model?: string | null;
  prompt: string;
  video: VideoInput;
  output?: VideoOutput;
  storage_options?: VideoStorageOptions;
  user?: string | null;
}

/** `POST /v1/videos/extensions` body (2–10 s, default 6; aspect ratio and resolution are the input's). */
export interface VideoExtensionRequest extends VideoEditRequest {
  duration?: number | string | null;
}

/** What every create answers. */
export interface VideoCreated {
  request_id: string;
}

export interface VideoFileOutput {
  file_id: string;
  filename: string;
  expires_at?: number | null;
  public_url?: string | null;
  public_url_error?: string | null;
  public_url_expires_at?: number | null;
}

/** `GET /v1/videos/{request_id}`. */
export interface VideoResult {
  status: VideoStatus;
  /** 0–99 while pending, 100 when done, omitted when failed. */
  progress?: number | null;
  model?: string | null;
  error?: { code: VideoErrorCode | string; message: string };
  usage?: { cost_in_usd_ticks?: number };
  video?: {
    url: string | null;
    /** Seconds. */
    duration: number;
    /** False: moderation failed and `url` is empty. */
    respect_moderation: boolean;
    storage_error?: string | null;
    file_output?: VideoFileOutput;
  };
}

/** Pixel size of a video of this aspect ratio at this resolution (the short side is the resolution's lines; even numbers for H.264). */
export function videoPixelSize(aspect: VideoAspectRatio, resolution: VideoResolution): { width: number; height: number } {
  const short = resolution === '480p' ? 480 : resolution === '720p' ? 720 : 1080;
  const [w, h] = aspect.split(':').map(Number) as [number, number];
  const even = (n: number): number => Math.round(n / 2) * 2;
  return w >= h ? { width: even((short * w) / h), height: short } : { width: short, height: even((short * h) / w) };
}
