/**
 * Makes the images of one request: decodes the inputs (edits), picks the output size, then for
 * each of the n images renders (in bands on the event loop) and encodes to JPEG (in a codec
 * worker), the next image rendering while the previous one encodes. Everything is seeded by the
 * request (model, prompt, aspect ratio, resolution, the inputs' bytes, the image's index), so the
 * same request gives the same bytes, and image i of n=2 is image i of n=4.
 */
import { createHash } from 'node:crypto';
import type { ImageGenerationModel } from '../../../shared/wire/models';
import type { ImageAspectRatio, ImageResolution } from '../../../shared/wire/images';
import { SandboxError } from '../errors';
import { hashSeed } from '../generate/rng';
import type { CodecPool } from '../media/codec-pool';
import { checkImageInput } from '../media/image-check';
import { webpStandIn, type RgbaImage } from '../media/image-codec';
import type { ResolvedInput } from '../media/input';
import { renderEdit } from './edit';
import { revisePrompt } from './revise';
import { renderScene } from './scene';
import { outputSize } from './size';

export const IMAGE_MIME = 'image/jpeg';
export const JPEG_QUALITY = 88;
/** WebP stand-ins are gradients (see media/image-codec.ts): drawn this small, then scaled up. */
const STAND_IN_SIDE = 64;

export interface ImageOrder {
  kind: 'generation' | 'edit';
  model: ImageGenerationModel;
  prompt: string;
  n: number;
  aspectRatio: ImageAspectRatio;
  resolution: ImageResolution;
  /** Edits: the resolved inputs (each knows the field path it came from). */
  inputs: readonly ResolvedInput[];
}

export interface ProducedImage {
  bytes: Uint8Array;
  mime: typeof IMAGE_MIME;
  width: number;
  height: number;
  revisedPrompt: string;
}

export async function produceImages(order: ImageOrder, codecs: CodecPool, signal?: AbortSignal): Promise<ProducedImage[]> {
  // Every input checked before any is decoded: a refusal costs no decoding at all.
  const sizes = await Promise.all(order.inputs.map((input) => checkImageInput(input.bytes, input.at)));
  const first = sizes[0];
  const { width, height } = outputSize(order.aspectRatio, order.resolution, first && first.width / first.height);
  const decoded = await Promise.all(order.inputs.map((input, i) => decode(input, sizes[i], { width, height }, codecs)));
  const inputsDigest = createHash('sha256');
  for (const input of order.inputs) inputsDigest.update(createHash('sha256').update(input.bytes).digest());
  const digest = inputsDigest.digest('hex');

  const encodes: Array<Promise<ProducedImage>> = [];
  for (let i = 0; i < order.n; i++) {
    if (signal?.aborted) break;
    // At most two images wait for their encoder: each is width x height x 4 bytes (16 MB at 2k).
    if (i >= 2) await encodes[i - 2];
    const seed = hashSeed(order.model.id, order.kind, order.prompt, order.aspectRatio, order.resolution, digest, String(i));
    const img = order.kind === 'edit' ? await renderEdit(decoded, order.prompt, seed, width, height, signal) : await renderScene(order.prompt, seed, width, height, signal);
    const revisedPrompt = revisePrompt(order.prompt, seed, order.kind === 'edit');
    encodes.push(codecs.encodeJpeg(img.data, width, height, JPEG_QUALITY).then((bytes) => ({ bytes, mime: IMAGE_MIME, width, height, revisedPrompt })));
  }
  return Promise.all(encodes);
}

async function decode(input: ResolvedInput, size: { width: number; height: number }, output: { width: number; height: number }, codecs: CodecPool): Promise<RgbaImage> {
  if (input.mime === 'image/webp') {
    const scale = STAND_IN_SIDE / Math.max(size.width, size.height);
    return webpStandIn(input.bytes, Math.max(1, Math.round(size.width * scale)), Math.max(1, Math.round(size.height * scale)));
  }
  try {
    // Scaled down in the worker to what covers the output: a collage cell is never larger.
    return await codecs.decode(input.bytes, input.mime as 'image/jpeg' | 'image/png', output);
  } catch (err) {
    throw new SandboxError(400, `${input.at} looks like ${input.mime} but does not decode (cut short or damaged?): ${(err as Error).message}`);
  }
}
