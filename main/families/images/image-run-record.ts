/**
 * What an image run keeps in History. The service's answer is recorded as it came, except that
 * each `b64_json` (megabytes of base64) is replaced by a reference to the gallery item holding
 * those bytes; the run's output lists the produced and sent gallery items (by id and blob), so
 * `images.ofRun` can rebuild the result offline, and says which images could not be kept.
 */
import { formatBytes } from '../../../shared/byte-size';
import type { ImageResult } from '../../../shared/wire/images';

/** In a recorded answer, in place of a `b64_json` string. */
export interface GalleryReference {
  $gallery: string;
  hash: string;
  mime: string;
  bytes: number;
}

/** One produced image as the run's output lists it. */
export interface RecordedImage {
  index: number;
  galleryId: string;
  hash: string;
  mime: string;
  bytes: number;
  width: number | null;
  height: number | null;
  revisedPrompt: string | null;
}

/** The run's output (`output_json`) of `images.generations` / `images.edits`. */
export interface ImageRunOutput {
  object: 'image.run';
  images: RecordedImage[];
  /** Gallery ids of the inputs sent from here (edits). */
  inputs: string[];
  /** Images of the answer that could not be kept, and why. */
  failed: Array<{ index: number; message: string }>;
  /** How many images the answer had. */
  answered: number;
  costTicks: number | null;
}

/** The answer with every `b64_json` replaced by the reference of the item made from it. */
export function recordedAnswer(answer: ImageResult, kept: ReadonlyMap<number, RecordedImage>): unknown {
  return {
    ...answer,
    data: answer.data.map((datum, i) => {
      if (typeof datum.b64_json !== 'string') return datum;
      const image = kept.get(i);
      const ref: GalleryReference | string = image
        ? { $gallery: image.galleryId, hash: image.hash, mime: image.mime, bytes: image.bytes }
        : `(${formatBytes(Math.floor((datum.b64_json.length * 3) / 4))} of base64 not kept: the image could not be read)`;
      return { ...datum, b64_json: ref };
    }),
  };
}

/** What History lists as the answer: how many images, their size, and what failed. */
export function imageRunPreview(output: ImageRunOutput): string {
  const n = output.images.length;
  const first = output.images[0];
  const size = first?.width && first.height ? ` · ${first.width}×${first.height}` : '';
  const failed = output.failed.length ? ` · ${output.failed.length} not kept` : '';
  return `${n} image${n === 1 ? '' : 's'}${size}${failed}`;
}

/** What full-text search indexes as the answer: the revised prompts. */
export function imageRunText(output: ImageRunOutput): string {
  return output.images
    .map((i) => i.revisedPrompt ?? '')
    .filter(Boolean)
    .join('\n');
}

/** Reads a recorded output back; null for anything else (a run of another shape, a damaged row). */
export function readImageRunOutput(value: unknown): ImageRunOutput | null {
  const v = value as Partial<ImageRunOutput> | null;
  if (!v || typeof v !== 'object' || v.object !== 'image.run' || !Array.isArray(v.images) || !Array.isArray(v.inputs)) return null;
  return { failed: [], answered: v.images.length, costTicks: null, ...v } as ImageRunOutput;
}
