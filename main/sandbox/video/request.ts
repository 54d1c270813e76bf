/**
 * The checks of the three video creates that need no I/O (spec "Video (asynchronous)", Limits,
 * wire-notes §8.2), made before anything is accepted. As on the text endpoints: 422 when a
 * violation is about the body's shape (a wrong JSON type, a missing required field, an unknown
 * enum value), else 400; then an unknown model is a 404. Inputs (`image`, `reference_images`,
 * `video`) are only shape-checked here; routes/videos.ts resolves and checks their bytes, still
 * before answering.
 */
import { collect, expectEnum, expectType, isObject, isUnset, shape, value, type RequestViolation } from '../../../shared/validate/violations';
import {
  VIDEO_ASPECT_RATIOS,
  VIDEO_LIMITS,
  VIDEO_RESOLUTIONS,
  type VideoAspectRatio,
  type VideoResolution,
} from '../../../shared/wire/videos';
import type { VideoGenerationModel } from '../../../shared/wire/models';
import { BUILT_IN_VOICES, findImageModel, findLanguageModel, findVideoModel, VIDEO_MODELS } from '../catalogue';
import { modelNotFound, SandboxError } from '../errors';
import { checkExpiresAfter, checkFilename } from '../files/rules';
import { refuse } from '../routes/request-checks';

export type VideoKind = 'generation' | 'edit' | 'extension';

/** The model a create uses when it names none. */
export const DEFAULT_VIDEO_MODEL = 'svc-video-1';
export const DEFAULT_ASPECT_RATIO: VideoAspectRatio = '16:9';
export const DEFAULT_RESOLUTION: VideoResolution = '720p';

export interface StorageRequest {
  filename: string;
  /** Seconds from when the file is stored; null: no expiry. */
  expiresAfter: number | null;
  /** Null: no public URL; else the URL's own expiry in seconds (null: none). */
  publicUrl: { expiresAfter: number | null } | null;
}

export interface CheckedVideoRequest {
  kind: VideoKind;
  model: VideoGenerationModel;
  /** '' when none was given (image-to-video). */
  prompt: string;
  /** The `image` (or `input_reference`) object as sent, and the name it was sent under. */
  image: { value: unknown; field: string } | null;
  referenceImages: unknown[];
  voices: string[];
  aspectRatio: VideoAspectRatio;
  resolution: VideoResolution;
  /** Whole seconds (generation and extension; an edit's comes from its input). */
  duration: number;
  /** The `video` object of an edit or extension, as sent. */
  video: unknown;
  uploadUrl: string | null;
  storage: StorageRequest | null;
  user: string | null;
}

const COMMON = ['model', 'prompt', 'output', 'storage_options', 'user'];
/** Accepted and ignored where the service ignores them (wire-notes §8.2: edit ignores duration, aspect and resolution; extension aspect and resolution). */
const FIELDS: Record<VideoKind, string[]> = {
  generation: [...COMMON, 'image', 'input_reference', 'reference_images', 'reference_audios', 'aspect_ratio', 'resolution', 'duration', 'seconds'],
  edit: [...COMMON, 'video', 'duration', 'seconds', 'aspect_ratio', 'resolution'],
  extension: [...COMMON, 'video', 'duration', 'seconds', 'aspect_ratio', 'resolution'],
};

const PATHS: Record<VideoKind, string> = { generation: '/v1/videos/generations', edit: '/v1/videos/edits', extension: '/v1/videos/extensions' };

/** A rule a files helper enforces (it throws SandboxError 400), as a violation. */
function fromRule(field: string, check: () => unknown): RequestViolation | null {
  try {
    check();
    return null;
  } catch (err) {
    if (err instanceof SandboxError) return value(field, err.message.replace(/\.$/, ''));
    throw err;
  }
}

/** `duration` or `seconds`: a whole number or a string of digits; the number, or a violation. */
function readSeconds(field: string, v: unknown): number | RequestViolation | null {
  if (isUnset(v)) return null;
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v)) return Number(v);
  return shape(field, `${field} must be a whole number of seconds, like 8 or "8"; got ${JSON.stringify(v)}`);
}

function checkDuration(kind: VideoKind, body: Record<string, unknown>, out: RequestViolation[]): number {
  const limits =
    kind === 'extension'
      ? { min: VIDEO_LIMITS.extensionDurationMin, max: VIDEO_LIMITS.extensionDurationMax, def: VIDEO_LIMITS.extensionDurationDefault, what: 'an extension' }
      : { min: VIDEO_LIMITS.durationMin, max: VIDEO_LIMITS.durationMax, def: VIDEO_LIMITS.durationDefault, what: 'a video' };
  const d = readSeconds('duration', body.duration);
  const s = readSeconds('seconds', body.seconds);
  for (const x of [d, s]) if (x !== null && typeof x !== 'number') out.push(x);
  if (typeof d !== 'number' && d !== null) return limits.def;
  if (typeof s !== 'number' && s !== null) return limits.def;
  if (d !== null && s !== null && d !== s) {
    out.push(value('duration', `duration and seconds are the same field (seconds is an alias) but differ: ${d} and ${s}; give one`));
    return limits.def;
  }
  const n = d ?? s;
  if (n === null) return limits.def;
  // An edit takes its length from its input video: the value is accepted and ignored.
  if (kind !== 'edit' && (n < limits.min || n > limits.max)) {
    out.push(value(d !== null ? 'duration' : 'seconds', `${d !== null ? 'duration' : 'seconds'} of ${limits.what} must be from ${limits.min} to ${limits.max} seconds; got ${n}`));
  }
  return n;
}

function checkPrompt(kind: VideoKind, body: Record<string, unknown>, hasImage: boolean, hasReferences: boolean, out: RequestViolation[]): string {
  const p = body.prompt;
  if (!isUnset(p) && typeof p !== 'string') {
    out.push(shape('prompt', 'prompt must be a string'));
    return '';
  }
  if (typeof p === 'string' && p.trim() === '') {
    out.push(value('prompt', kind === 'generation' && hasImage && !hasReferences ? 'prompt must not be empty (leave it out to animate the image alone)' : 'prompt must not be empty'));
    return '';
  }
  if (isUnset(p)) {
    if (kind === 'edit') out.push(shape('prompt', 'prompt is required: say what to change in the video'));
    else if (kind === 'extension') out.push(shape('prompt', 'prompt is required: say what happens next'));
    else if (hasReferences) out.push(shape('prompt', 'prompt is required for reference-to-video (reference_images or reference_audios)'));
    else if (!hasImage) out.push(shape('prompt', 'prompt is required for text-to-video (it is optional only when image is given)'));
    return '';
  }
  return p as string;
}

function checkImageEntries(field: string, v: unknown, out: RequestViolation[]): unknown[] {
  if (isUnset(v)) return [];
  if (!Array.isArray(v)) {
    out.push(shape(field, `${field} must be an array of {"url": ...} or {"file_id": ...} objects`));
    return [];
  }
  if (v.length > VIDEO_LIMITS.maxReferenceImages) out.push(value(field, `${field} may have at most ${VIDEO_LIMITS.maxReferenceImages} entries; got ${v.length}`));
  v.forEach((e, i) => {
    if (!isObject(e)) out.push(shape(`${field}[${i}]`, `${field}[${i}] must be an object: {"url": "..."} or {"file_id": "..."}`));
  });
  return v;
}

function checkVoices(v: unknown, out: RequestViolation[]): string[] {
  if (isUnset(v)) return [];
  if (!Array.isArray(v)) {
    out.push(shape('reference_audios', 'reference_audios must be an array of {"voice_id": "..."} objects'));
    return [];
  }
  if (v.length > VIDEO_LIMITS.maxReferenceAudios) {
    out.push(value('reference_audios', `reference_audios may have at most ${VIDEO_LIMITS.maxReferenceAudios} entries; got ${v.length}`));
  }
  const ids: string[] = [];
  v.forEach((e, i) => {
    const f = `reference_audios[${i}]`;
    if (!isObject(e)) return out.push(shape(f, `${f} must be an object: {"voice_id": "..."}`));
    const extra = Object.keys(e).find((k) => k !== 'voice_id');
    if (extra !== undefined) return out.push(value(`${f}.${extra}`, `${f}.${extra} is not a field of ${f}; it takes voice_id only`));
    if (isUnset(e.voice_id)) return out.push(shape(`${f}.voice_id`, `${f}.voice_id is required`));
    if (typeof e.voice_id !== 'string') return out.push(shape(`${f}.voice_id`, `${f}.voice_id must be a string`));
    if (!BUILT_IN_VOICES.some((voice) => voice.voice_id === e.voice_id)) {
      return out.push(value(`${f}.voice_id`, `${f}.voice_id "${e.voice_id}" is not a built-in voice; use one of ${BUILT_IN_VOICES.map((x) => x.voice_id).join(', ')}`));
    }
    ids.push(e.voice_id);
  });
  return ids;
}

function checkOutput(v: unknown, out: RequestViolation[]): string | null {
  if (isUnset(v)) return null;
  if (!isObject(v)) return (out.push(shape('output', 'output must be an object: {"upload_url": "https://..."}')), null);
  const extra = Object.keys(v).find((k) => k !== 'upload_url');
  if (extra !== undefined) out.push(value(`output.${extra}`, `output.${extra} is not a field of output; it takes upload_url only`));
  const url = v.upload_url;
  if (isUnset(url)) return (out.push(shape('output.upload_url', 'output.upload_url is required: the signed URL the video is uploaded to by HTTP PUT')), null);
  if (typeof url !== 'string') return (out.push(shape('output.upload_url', 'output.upload_url must be a string')), null);
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    // reported below
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    return (out.push(value('output.upload_url', `output.upload_url must be an http(s) URL; got ${JSON.stringify(url.slice(0, 80))}`)), null);
  }
  return url;
}

function checkStorage(v: unknown, out: RequestViolation[]): StorageRequest | null {
  if (isUnset(v)) return null;
  if (!isObject(v)) return (out.push(shape('storage_options', 'storage_options must be an object: {"filename": "..."}')), null);
  const before = out.length;
  const extra = Object.keys(v).find((k) => !['filename', 'expires_after', 'public_url'].includes(k));
  if (extra !== undefined) out.push(value(`storage_options.${extra}`, `storage_options.${extra} is not a field of storage_options; it takes filename, expires_after and public_url`));
  if (isUnset(v.filename)) out.push(shape('storage_options.filename', 'storage_options.filename is required: the name the stored file gets'));
  else if (typeof v.filename !== 'string') out.push(shape('storage_options.filename', 'storage_options.filename must be a string'));
  else {
    const bad = fromRule('storage_options.filename', () => checkFilename(v.filename, 'storage_options.filename'));
    if (bad) out.push(bad);
  }
  const ea = v.expires_after;
  const max = VIDEO_LIMITS.storageExpiresAfterMax;
  if (!isUnset(ea)) {
    if (typeof ea !== 'number' || !Number.isInteger(ea)) out.push(shape('storage_options.expires_after', 'storage_options.expires_after must be a whole number of seconds or null'));
    else if (ea < 1 || ea > max) {
      out.push(value('storage_options.expires_after', `storage_options.expires_after must be from 1 to ${max} seconds (30 days); got ${ea}`));
    }
  }
  let publicUrl: StorageRequest['publicUrl'] = null;
  const pu = v.public_url;
  if (pu === true) publicUrl = { expiresAfter: null };
  else if (isObject(pu)) {
    const extraPu = Object.keys(pu).find((k) => k !== 'expires_after');
    if (extraPu !== undefined) out.push(value(`storage_options.public_url.${extraPu}`, `storage_options.public_url.${extraPu} is not a field of public_url; it takes expires_after only`));
    const puEa = pu.expires_after;
    if (!isUnset(puEa)) {
      const bad = fromRule('storage_options.public_url.expires_after', () => checkExpiresAfter(puEa, 'storage_options.public_url.expires_after'));
      if (bad) out.push(typeof puEa === 'number' ? bad : shape(bad.field, bad.message));
    }
    publicUrl = { expiresAfter: typeof puEa === 'number' ? puEa : null };
  } else if (!isUnset(pu) && pu !== false) {
    out.push(shape('storage_options.public_url', 'storage_options.public_url must be a boolean or an object {"expires_after": seconds}'));
  }
  if (out.length > before) return null;
  return { filename: v.filename as string, expiresAfter: typeof ea === 'number' ? ea : null, publicUrl };
}

/** An `.mp4` URL, a data URL or a file id: the rule on `video` that needs no fetching. */
function checkVideoRef(v: unknown, out: RequestViolation[]): void {
  if (isUnset(v)) return void out.push(shape('video', 'video is required: {"url": "https://.../clip.mp4"} or {"file_id": "..."}'));
  if (!isObject(v)) return void out.push(shape('video', 'video must be an object: {"url": "https://.../clip.mp4"} or {"file_id": "..."}'));
  const url = v.url;
  if (typeof url !== 'string' || /^data:/i.test(url) || url.trim() === '') return;
  let path = '';
  try {
    path = new URL(url).pathname;
  } catch {
    return void out.push(value('video.url', `video.url must be an http(s) URL ending in .mp4 or a base64 data URL; got ${JSON.stringify(url.slice(0, 80))}`));
  }
  if (!/\.mp4$/i.test(decodeURIComponent(path))) out.push(value('video.url', `video.url must end in .mp4 (an MP4 with H.264, H.265 or AV1 video); got ${JSON.stringify(url.slice(0, 120))}`));
}

/** The video model named (or the default); 404 unknown, 400 a model of another kind. */
function videoModel(id: unknown): VideoGenerationModel {
  const name = isUnset(id) ? DEFAULT_VIDEO_MODEL : (id as string);
  const model = findVideoModel(name);
  if (model) return model;
  const other = findLanguageModel(name) ? 'a language model' : findImageModel(name) ? 'an image generation model' : null;
  if (other) throw new SandboxError(400, `The model ${name} is ${other}, not a video generation model; use ${VIDEO_MODELS.map((m) => m.id).join(' or ')}.`);
  throw modelNotFound(name);
}

/** Checks a create's body: 422 / 400 with every violation, then 404 / 400 for the model. */
export function checkVideoRequest(kind: VideoKind, body: unknown): CheckedVideoRequest {
  if (!isObject(body)) refuse([shape('body', 'the request body must be a JSON object')]);
  const b = body as Record<string, unknown>;
  const out: RequestViolation[] = [];
  const unknown = Object.keys(b).filter((k) => !FIELDS[kind].includes(k));
  for (const k of unknown) out.push(value(k, `${k} is not a parameter of POST ${PATHS[kind]}; it takes ${FIELDS[kind].join(', ')}`));

  const model = expectType('model', b.model, 'string') ?? (typeof b.model === 'string' && b.model.trim() === '' ? value('model', 'model must not be empty (leave it out for svc-video-1)') : null);
  let image: CheckedVideoRequest['image'] = null;
  if (kind === 'generation') {
    if (!isUnset(b.image) && !isUnset(b.input_reference)) {
      out.push(value('input_reference', 'image and input_reference are the same field (input_reference is an alias); give one of them'));
    }
    const field = isUnset(b.image) && !isUnset(b.input_reference) ? 'input_reference' : 'image';
    if (!isUnset(b[field])) {
      if (!isObject(b[field])) out.push(shape(field, `${field} must be an object: {"url": "..."} (an https or base64 data URL) or {"file_id": "..."}`));
      image = { value: b[field], field };
    }
  }
  const referenceImages = kind === 'generation' ? checkImageEntries('reference_images', b.reference_images, out) : [];
  const voices = kind === 'generation' ? checkVoices(b.reference_audios, out) : [];
  const hasReferences = referenceImages.length > 0 || voices.length > 0 || (Array.isArray(b.reference_audios) && b.reference_audios.length > 0);
  if (image && hasReferences) {
    out.push(value(image.field, `give ${image.field} (image-to-video) or reference_images / reference_audios (reference-to-video), not both`));
  }
  const prompt = checkPrompt(kind, b, image !== null, hasReferences, out);
  const duration = checkDuration(kind, b, out);
  if (kind !== 'generation') checkVideoRef(b.video, out);
  const uploadUrl = checkOutput(b.output, out);
  const storage = checkStorage(b.storage_options, out);
  const violations = collect(
    out,
    model,
    expectEnum('aspect_ratio', b.aspect_ratio, VIDEO_ASPECT_RATIOS),
    expectEnum('resolution', b.resolution, VIDEO_RESOLUTIONS),
    expectType('user', b.user, 'string'),
  );
  if (violations.length > 0) refuse(violations);

  const m = videoModel(b.model);
  if (voices.length > 0 && !m.input_modalities.includes('audio')) {
    const withAudio = VIDEO_MODELS.filter((x) => x.input_modalities.includes('audio')).map((x) => x.id);
    throw new SandboxError(400, `reference_audios needs a model that takes audio (${withAudio.join(', ')}); ${m.id} does not.`);
  }
  return {
    kind,
    model: m,
    prompt,
    image,
    referenceImages,
    voices,
    aspectRatio: (b.aspect_ratio as VideoAspectRatio | undefined) ?? DEFAULT_ASPECT_RATIO,
    resolution: (b.resolution as VideoResolution | undefined) ?? DEFAULT_RESOLUTION,
    duration,
    video: b.video,
    uploadUrl,
    storage,
    user: typeof b.user === 'string' ? b.user : null,
  };
}
