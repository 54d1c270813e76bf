/**
 * The inputs of a video create, resolved and checked before it is accepted: pictures (`image`,
 * `input_reference`, `reference_images[i]`) through media/input.ts, then their headers read (a
 * picture whose size cannot be read is refused now, not failed later); and the `video` of an
 * edit or extension, whose MP4 boxes must show a video track of a supported codec. A video this
 * sandbox made (recognised by the hash of its bytes, however it was passed) brings its plan.
 */
import { IMAGE_LIMITS } from '../../../shared/wire/images';
import { VIDEO_IMAGE_MIME_TYPES, VIDEO_LIMITS } from '../../../shared/wire/videos';
import { SandboxError } from '../errors';
import { checkImageInput } from '../media/image-check';
import { resolveInput, type InputContext } from '../media/input';
import type { PictureRef } from './frames';
import type { VideoMedia } from './media';
import { readMp4Info, Mp4Error } from './mp4-info';
import { sha256, type InputVideo } from './plan';
import type { VideoJobStore } from './store';

/** Resolves one picture input, keeps its bytes for the encoder and returns its reference. */
export async function resolvePicture(value: unknown, field: string, ctx: InputContext, media: VideoMedia): Promise<PictureRef> {
  const input = await resolveInput(value, { field, accept: VIDEO_IMAGE_MIME_TYPES, maxBytes: IMAGE_LIMITS.maxInputImageBytes }, ctx);
  // Checked now, before the encoder decodes it: a cut-short file or a zlib bomb is a 400 at create.
  await checkImageInput(input.bytes, `${field}.${input.source === 'file' ? 'file_id' : 'url'}`);
  const key = sha256(input.bytes).slice(0, 40);
  await media.putSource(key, input.bytes);
  return { key, mime: input.mime };
}

/**
 * The largest side of an input video: 8K, beyond what any H.264/H.265/AV1 level the spec's codecs
 * are used at produces. A header claiming more is not a real video (the result is scaled to the
 * spec's largest frame anyway, see plan.ts foreignFrameSize).
 */
export const MAX_INPUT_VIDEO_SIDE = 8192;

/** Resolves the `video` of an edit or extension and reads its boxes. */
export async function resolveVideo(value: unknown, ctx: InputContext, jobs: VideoJobStore): Promise<InputVideo> {
  const input = await resolveInput(value, { field: 'video', accept: ['video/mp4'], maxBytes: VIDEO_LIMITS.maxInputVideoBytes, types: ['video_url'] }, ctx);
  const at = `video.${input.source === 'file' ? 'file_id' : 'url'}`;
  let info;
  try {
    info = readMp4Info(input.bytes);
  } catch (err) {
    if (err instanceof Mp4Error) throw new SandboxError(400, `${at} ${err.message}`);
    throw err;
  }
  if (info.width < 2 || info.height < 2) throw new SandboxError(400, `${at} has a video track without a size (${info.width}x${info.height})`);
  if (info.width > MAX_INPUT_VIDEO_SIDE || info.height > MAX_INPUT_VIDEO_SIDE) {
    throw new SandboxError(
      400,
      `${at} says its video is ${info.width}x${info.height} pixels; input videos may be at most ${MAX_INPUT_VIDEO_SIDE} pixels on each side (8K). Scale the video down first.`,
    );
  }
  const hash = sha256(input.bytes);
  return { hash, info, plan: jobs.madeFrom(hash) ?? null };
}
