/**
 * The video job centre's form as plain data: what the user chose per mode (generate, edit,
 * extend), the `videos.create` input built from it (only what the mode sends), and the rules a
 * person must see before sending: the contract's own (VideoCreateSchema) plus those it cannot
 * know (the model's audio support, the input's type, the storage expiry in the unit shown).
 */
import type { MediaSource } from '@shared/families/images/contract';
import { VideoCreateSchema, type VideoCreateInput, type VideoMode } from '@shared/families/videos/contract';
import type { LimitViolation } from '@shared/limits';
import { VIDEO_IMAGE_MIME_TYPES, VIDEO_LIMITS, type VideoAspectRatio, type VideoResolution } from '@shared/wire/videos';
import { formatTicks } from '@shared/pricing';
import { estimateVideoCost } from '@shared/video-pricing';
import { schemaIssues } from './form-violations';

/** One input shown as a chip: where it comes from and what to call it. */
export interface MediaChip {
  source: MediaSource;
  label: string;
  kind: 'image' | 'video';
  /** MIME type when known ('' otherwise): checked against what the mode accepts. */
  mime: string;
}

export type ExpiryUnit = 'hours' | 'days';
const UNIT_SECONDS: Record<ExpiryUnit, number> = { hours: 3600, days: 86_400 };

export interface VideoStorageForm {
  enabled: boolean;
  filename: string;
  /** Empty: the file never expires. */
  expiresIn: number | null;
  expiresUnit: ExpiryUnit;
  publicUrl: boolean;
}

export interface VideoForm {
  mode: VideoMode;
  model: string;
  prompt: string;
  /** generate: the image to animate (image-to-video). */
  image: MediaChip | null;
  /** generate: reference images (reference-to-video). */
  referenceImages: MediaChip[];
  /** generate: preset voice ids. */
  referenceAudios: string[];
  /** edit / extend: the video. */
  video: MediaChip | null;
  aspectRatio: VideoAspectRatio | null;
  resolution: VideoResolution | null;
  /** Per mode, so switching keeps each; null: the service's default. */
  durations: { generate: number | null; extend: number | null };
  uploadUrl: string;
  storage: VideoStorageForm;
}

export function defaultVideoForm(model = ''): VideoForm {
  return {
    mode: 'generate',
    model,
    prompt: '',
    image: null,
    referenceImages: [],
    referenceAudios: [],
    video: null,
    aspectRatio: null,
    resolution: null,
    durations: { generate: null, extend: null },
    uploadUrl: '',
    storage: { enabled: false, filename: '', expiresIn: null, expiresUnit: 'days', publicUrl: false },
  };
}

/** The duration rule of a mode: its range and default, or null when the mode ignores duration (edit). */
export function durationRule(mode: VideoMode): { min: number; max: number; default: number } | null {
  if (mode === 'edit') return null;
  return mode === 'extend'
    ? { min: VIDEO_LIMITS.extensionDurationMin, max: VIDEO_LIMITS.extensionDurationMax, default: VIDEO_LIMITS.extensionDurationDefault }
    : { min: VIDEO_LIMITS.durationMin, max: VIDEO_LIMITS.durationMax, default: VIDEO_LIMITS.durationDefault };
}

/** Why aspect ratio and resolution cannot be chosen in this mode, or null when they can. */
export function sizeLockedReason(mode: VideoMode): string | null {
  return mode === 'generate' ? null : 'an edit or an extension keeps the input’s size';
}

/** Seconds of the storage expiry as typed, or null for none. */
export function expirySeconds(storage: VideoStorageForm): number | null {
  return storage.expiresIn === null ? null : Math.round(storage.expiresIn * UNIT_SECONDS[storage.expiresUnit]);
}

/** The `videos.create` input: only the fields the mode sends. */
export function buildVideoCreate(form: VideoForm): VideoCreateInput {
  const input: VideoCreateInput = { mode: form.mode, model: form.model, prompt: form.prompt };
  if (form.mode === 'generate') {
    if (form.image) input.image = form.image.source;
    if (form.referenceImages.length) input.referenceImages = form.referenceImages.map((c) => c.source);
    if (form.referenceAudios.length) input.referenceAudios = [...form.referenceAudios];
    if (form.aspectRatio) input.aspectRatio = form.aspectRatio;
    if (form.resolution) input.resolution = form.resolution;
    if (form.durations.generate !== null) input.duration = form.durations.generate;
  } else {
    if (form.video) input.video = form.video.source;
    if (form.mode === 'extend' && form.durations.extend !== null) input.duration = form.durations.extend;
  }
  if (form.uploadUrl.trim()) input.output = { uploadUrl: form.uploadUrl.trim() };
  if (form.storage.enabled) {
    const expiresAfter = expirySeconds(form.storage);
    input.storage = { filename: form.storage.filename, ...(expiresAfter !== null ? { expiresAfter } : {}), ...(form.storage.publicUrl ? { publicUrl: true } : {}) };
  }
  return input;
}

/** What the form knows of the chosen model. */
export interface VideoModelInfo {
  id: string;
  inputModalities: string[];
}

/** Why reference voices cannot be used with `model`, or null when they can. */
export function audioUnsupportedReason(model: VideoModelInfo | undefined): string | null {
  if (!model) return 'choose a model that accepts reference audio';
  if (model.inputModalities.includes('audio')) return null;
  return `${model.id} does not take reference audio (it accepts ${model.inputModalities.join(', ') || 'no listed inputs'})`;
}

function isMp4(chip: MediaChip): boolean {
  if (chip.mime) return chip.mime === 'video/mp4';
  const name = chip.source.kind === 'url' ? chip.source.url.split(/[?#]/)[0]! : chip.label;
  return /\.mp4$/i.test(name) || chip.source.kind === 'gallery' || chip.source.kind === 'file';
}

/**
 * Every rule the form breaks, in the order they are told. `model` is the chosen catalogue entry
 * (undefined when the catalogue does not list it).
 */
export function videoFormViolations(form: VideoForm, model: VideoModelInfo | undefined): LimitViolation[] {
  const out: LimitViolation[] = [];
  const rule = durationRule(form.mode);
  const duration = form.mode === 'extend' ? form.durations.extend : form.durations.generate;
  if (rule && duration !== null && (duration < rule.min || duration > rule.max || !Number.isInteger(duration))) {
    out.push({ field: 'duration', message: `${form.mode === 'extend' ? 'an extension' : 'a generation'} lasts ${rule.min}–${rule.max} whole seconds (default ${rule.default})` });
  }
  if (form.mode === 'generate') {
    const voices = form.referenceAudios.length;
    if (voices > 0) {
      const reason = audioUnsupportedReason(model);
      if (reason) out.push({ field: 'referenceAudios', message: `reference voices: ${reason}` });
    }
    if (voices > VIDEO_LIMITS.maxReferenceAudios) out.push({ field: 'referenceAudios', message: `at most ${VIDEO_LIMITS.maxReferenceAudios} reference voices` });
    for (const [i, chip] of [form.image, ...form.referenceImages].entries()) {
      if (chip && chip.mime && !(VIDEO_IMAGE_MIME_TYPES as readonly string[]).includes(chip.mime)) {
        out.push({ field: i === 0 && form.image ? 'image' : 'referenceImages', message: `"${chip.label}" is ${chip.mime}; a video starts from a JPEG, PNG or WebP image` });
      }
    }
  } else if (form.video && !isMp4(form.video)) {
    out.push({ field: 'video', message: `"${form.video.label}" is not an MP4 video; edits and extensions take .mp4 only` });
  }
  if (form.storage.enabled) {
    if (!form.storage.filename.trim()) {
      out.push({ field: 'storage.filename', message: 'name the file to store the video as (e.g. heron.mp4), or untick "Also store the video as a file"' });
    }
    const seconds = expirySeconds(form.storage);
    if (seconds !== null && (seconds < 1 || seconds > VIDEO_LIMITS.storageExpiresAfterMax)) {
      out.push({ field: 'storage.expiresAfter', message: 'a stored video expires after at most 30 days (2,592,000 s), or leave it empty for no expiry' });
    }
  }
  // The contract's own rules (prompt per mode, the model, the URL, the file name...).
  for (const issue of schemaIssues(VideoCreateSchema, buildVideoCreate(form))) {
    if (!out.some((v) => v.field === issue.field)) out.push(issue);
  }
  return out;
}

/**
 * The estimated cost line before a create: the figure and how it was reached. The listings carry
 * no video price: the rate is known for the sandbox (shared/video-pricing.ts), not for a service.
 */
export function videoCostText(request: { mode: VideoMode; duration?: number; resolution?: VideoResolution }, knownRates: boolean): { cost: string; basis: string } {
  if (!knownRates) return { cost: 'unknown', basis: '(the service lists no video price; the job says its cost when it ends)' };
  const e = estimateVideoCost(request);
  if (e.kind === 'exact') return { cost: formatTicks(e.ticks), basis: `(${e.seconds} s at ${e.resolution}, ${formatTicks(e.ticks / e.seconds)} per second)` };
  if (e.kind === 'range') return { cost: `${formatTicks(e.minTicks)}–${formatTicks(e.maxTicks)}`, basis: `(${e.seconds} s at the input video's resolution)` };
  return { cost: `${formatTicks(e.minTicks)}–${formatTicks(e.maxTicks)} per second`, basis: "of the input video (an edit keeps its length and resolution)" };
}

/**
 * A file name to store a video under, made from its prompt ("a heron takes off at dawn" →
 * heron-takes-off-at-dawn.mp4), or from the mode and the time when there is no prompt.
 */
export function suggestedVideoFileName(form: Pick<VideoForm, 'prompt' | 'mode'>, now: Date = new Date()): string {
  const words = form.prompt
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !['a', 'an', 'the'].includes(w));
  let stem = '';
  for (const w of words) {
    if ((stem ? stem.length + 1 : 0) + w.length > 48) break;
    stem = stem ? `${stem}-${w}` : w;
  }
  if (!stem) {
    const pad = (n: number): string => String(n).padStart(2, '0');
    stem = `video-${form.mode}-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}`;
  }
  return `${stem}.mp4`;
}
