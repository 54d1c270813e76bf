/**
 * The Images family: generate and edit. One stream per request so the page knows the run (and
 * can cancel) at once; the images are downloaded into the blob store before the result returns
 * (the service's URLs expire), so every result is already a gallery item that works offline.
 */
import { z } from 'zod';
import { IMAGE_ASPECT_RATIOS, IMAGE_LIMITS, IMAGE_RESOLUTIONS, IMAGE_RESPONSE_FORMATS } from '../../wire/images';
import { call, stream } from '../../contract/define';
import { FileIdSchema } from '../files/contract';
import { GalleryItemIdSchema, type GalleryItem } from '../../contract/gallery';
import { ConnectionIdSchema, ExtraHeadersSchema } from '../../contract/text';
import { FileRefIdSchema } from '../../contract/user-files';

/**
 * An image the user gives to an edit or a video: a file they picked or dropped (`ref`), an
 * uploaded file (`file`, its service id), an earlier gallery item, or a URL (public or data URL).
 */
export const MediaSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ref'), ref: FileRefIdSchema }).strict(),
  z.object({ kind: z.literal('file'), fileId: FileIdSchema }).strict(),
  z.object({ kind: z.literal('gallery'), id: GalleryItemIdSchema }).strict(),
  z.object({ kind: z.literal('url'), url: z.string().trim().min(1, 'enter a URL').max(30 * 1024 * 1024).regex(/^(https?:|data:)/, 'a URL starts with https://, http:// or data:') }).strict(),
]);
export type MediaSource = z.infer<typeof MediaSourceSchema>;

const promptSchema = z.string().trim().min(1, 'write a prompt');

const common = {
  connectionId: ConnectionIdSchema.optional(),
  model: z.string().trim().min(1, 'choose a model').max(200),
  prompt: promptSchema.max(100_000),
  n: z.number().int('a whole number').min(IMAGE_LIMITS.nMin, `at least ${IMAGE_LIMITS.nMin}`).max(IMAGE_LIMITS.nMax, `at most ${IMAGE_LIMITS.nMax}`).default(1),
  responseFormat: z.enum(IMAGE_RESPONSE_FORMATS).default('url'),
  resolution: z.enum(IMAGE_RESOLUTIONS).default('1k'),
  user: z.string().max(256).optional(),
  /** Request headers the user added (Custom headers), as the text families take them. */
  headers: ExtraHeadersSchema.optional(),
};

export const ImageGenerateSchema = z.object({ ...common, aspectRatio: z.enum(IMAGE_ASPECT_RATIOS).default('auto') }).strict();
export type ImageGenerateInput = z.input<typeof ImageGenerateSchema>;

export const ImageEditSchema = z
  .object({
    ...common,
    /** One image (sent as `image`), or several (sent as `images`, referred to as <IMAGE_0>, ...). */
    images: z.array(MediaSourceSchema).min(1, 'add an image to edit').max(IMAGE_LIMITS.maxReferenceImages, `at most ${IMAGE_LIMITS.maxReferenceImages} images`),
    /** Only for multi-image edits (the service refuses it on a single-image edit). */
    aspectRatio: z.enum(IMAGE_ASPECT_RATIOS).optional(),
  })
  .strict()
  .refine((e) => e.aspectRatio === undefined || e.images.length > 1, { path: ['aspectRatio'], message: 'aspect ratio applies to multi-image edits only' });
export type ImageEditInput = z.input<typeof ImageEditSchema>;

/** What an image request sends the page while it lasts. */
export type ImageRunChunk =
  | { type: 'started'; runId: string }
  | { type: 'sent' }
  | { type: 'downloading'; done: number; total: number };

export interface ImageRunResult {
  runId: string;
  /** The produced images, already in the gallery (in the order of the answer's `data`). */
  images: GalleryItem[];
  /** The service's `usage.cost_in_usd_ticks` (null when absent). */
  costTicks: number | null;
  /** Inputs the edit sent, added to the gallery as `input` items. */
  inputs: GalleryItem[];
  durationMs: number;
}

export const imagesContract = {
  generate: stream<ImageRunChunk, ImageRunResult>()(ImageGenerateSchema),
  edit: stream<ImageRunChunk, ImageRunResult>()(ImageEditSchema),
  /** The run's result again (History's entry, a reload during a request). */
  ofRun: call<ImageRunResult | null>()(z.object({ runId: z.string().min(1).max(64) }).strict()),
};
