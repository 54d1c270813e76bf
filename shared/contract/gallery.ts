/**
 * The gallery: every image and video this app produced or sent, kept in the blob store so it is
 * browsable, searchable and playable offline. Items reach the page with media URLs (never bytes
 * through the contract); thumbnails are made by the page (it decodes images and video frames
 * natively) and handed to main once, so the next open of the gallery shows them at once.
 */
import { z } from 'zod';
import { BytesSchema } from './bytes';
import { call, event, stream } from './define';
import type { FileDownloadChunk, FileDownloadResult } from '../families/files/contract';
import { RunIdSchema } from './run-id';
import { BlobHashSchema, type MediaUrl } from './media';
import { FileRefIdSchema } from './user-files';

export const GALLERY_KINDS = ['image', 'video', 'audio'] as const;
export type GalleryKind = (typeof GALLERY_KINDS)[number];

/**
 * Where an item came from: `generated` (images.generate, a video generation), `edited` (an image
 * edit, a video edit), `extended` (a video extension), `input` (an image or video the user sent),
 * `recorded` (a live session's recording, e.g. a call's stereo mix).
 */
export const GALLERY_ORIGINS = ['generated', 'edited', 'extended', 'input', 'recorded'] as const;
export type GalleryOrigin = (typeof GALLERY_ORIGINS)[number];

export const GalleryItemIdSchema = z.string().regex(/^gal_[A-Za-z0-9_-]{8,64}$/, 'not a gallery item id');

export interface GalleryItem {
  id: string;
  kind: GalleryKind;
  origin: GalleryOrigin;
  /** The bytes, in the blob store. */
  hash: string;
  mime: string;
  bytes: number;
  width: number | null;
  height: number | null;
  /** Seconds (videos). */
  duration: number | null;
  /** The prompt that made it ('' for an input the user gave). */
  prompt: string;
  revisedPrompt: string | null;
  model: string | null;
  /** The file name it had (an input) or one made from the prompt. */
  name: string;
  createdAt: number;
  /** The History run that made (or sent) it. */
  runId: string | null;
  /** The video job that made it. */
  jobId: string | null;
  /** Items this one was made from (edit inputs, the video an extension continued). */
  sourceIds: string[];
  /** Where the page loads it (full size), and its thumbnail (null until the page has made one). */
  url: MediaUrl;
  thumbUrl: MediaUrl | null;
}

export const GalleryListSchema = z
  .object({
    /** Words matched against prompt, revised prompt, model and name (every word must match). */
    query: z.string().max(500).optional(),
    kind: z.enum(GALLERY_KINDS).optional(),
    /** Newest first; the cursor is the last item's id of the previous page. */
    after: GalleryItemIdSchema.optional(),
    limit: z.number().int().min(1).max(500).default(200),
  })
  .strict()
  .optional();
export type GalleryListInput = z.input<typeof GalleryListSchema>;

export interface GalleryPage {
  items: GalleryItem[];
  /** How many items match in all (for the virtual list's height). */
  total: number;
  /** Null at the end. */
  next: string | null;
}

export const GalleryIdSchema = z.object({ id: GalleryItemIdSchema }).strict();

/** A thumbnail the page made: JPEG or WebP, at most 512 px on its long side and 256 KB. */
export const GalleryThumbSchema = z
  .object({
    id: GalleryItemIdSchema,
    mime: z.enum(['image/jpeg', 'image/webp', 'image/png']),
    bytes: BytesSchema.refine((b) => b.byteLength > 0 && b.byteLength <= 256 * 1024, 'a thumbnail is at most 256 KB'),
  })
  .strict();

export const galleryContract = {
  list: call<GalleryPage>()(GalleryListSchema),
  get: call<GalleryItem>()(GalleryIdSchema),
  /** Explicit delete: the item goes; its blob goes when nothing else holds it. */
  remove: call<{ removed: boolean }>()(GalleryIdSchema),
  setThumb: call<GalleryItem>()(GalleryThumbSchema),
  /** Saves the bytes to disk (Electron: a save dialog; browser mode: a one-time download link). */
  save: stream<FileDownloadChunk, FileDownloadResult>()(GalleryIdSchema),
  /** The items a run made or sent (History's entry shows them). */
  ofRun: call<GalleryItem[]>()(z.object({ runId: RunIdSchema }).strict()),
  /** By blob, e.g. to find a gallery item for media a run recorded. */
  byHash: call<GalleryItem | null>()(z.object({ hash: BlobHashSchema }).strict()),
  /**
   * Keeps a file the user chose or dropped (a staged reference) as an `input` item, and releases
   * the reference: a form's draft can then name the item, which outlives a restart, where a staged
   * reference dies with the process. The same bytes twice are one item.
   */
  keepInput: call<GalleryItem>()(z.object({ ref: FileRefIdSchema }).strict()),
  /** An item was added, changed (a thumbnail) or removed (`removed: true`). */
  changed: event<{ item: GalleryItem | null; id: string; removed: boolean }>(),
};
