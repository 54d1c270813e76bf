/**
 * The gallery: every image and video the app produced or sent. `add()` is how other services put
 * media in (images, video jobs, edit inputs): the bytes go to the blob store first, their type and
 * size are read from their headers (media-probe.ts), then the row takes its reference in one
 * transaction, so an item exists only with all of its bytes. The page gets items with media URLs
 * (MediaService), makes thumbnails itself and hands them back once (`setThumb`).
 */
import { randomBytes } from 'node:crypto';
import { copyFile, rename, rm } from 'node:fs/promises';
import type { FileDownloadResult } from '../../shared/families/files/contract';
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { GalleryItem, GalleryKind, GalleryListInput, GalleryOrigin, GalleryPage } from '../../shared/contract/gallery';
import type { BlobInfo, BlobStore } from '../store/blobs';
import type { Db } from '../store/db';
import {
  deleteGalleryItem,
  galleryItemsOfJob,
  galleryItemsOfRun,
  getGalleryItem,
  getGalleryItemByHash,
  insertGalleryItem,
  listGallery,
  setGalleryRunIfNone,
  setGalleryThumb,
  type GalleryRow,
} from '../store/gallery';
import { chooseDestination, type SaveTarget } from './download-tickets';
import type { MediaService } from './media-service';
import { probeBytes, probeFile, type MediaProbe } from './media-probe';

/** What `add()` stores: bytes in memory, a file to copy in (streamed), or a blob already stored. */
export type GalleryData = Uint8Array | { path: string } | { blob: BlobInfo };

export interface GalleryAddInput {
  data: GalleryData;
  origin: GalleryOrigin;
  /** Default: what the bytes' header says. Must be an image or a video. */
  kind?: GalleryKind;
  /** Default: from the magic bytes. */
  mime?: string;
  prompt?: string;
  revisedPrompt?: string | null;
  model?: string | null;
  /** Default: made from the prompt (`a-cat-in-a-tree.png`), else `image.png` / `video.mp4`. */
  name?: string;
  runId?: string | null;
  jobId?: string | null;
  sourceIds?: string[];
  /** Seconds; default: the MP4 header's. */
  duration?: number | null;
  /**
   * Reuse an item that already holds the same bytes instead of adding another (inputs: an image
   * sent twice, or a gallery item sent back, is one item).
   */
  dedupe?: boolean;
  createdAt?: number;
}

export interface GalleryServiceDeps {
  db: Db;
  blobs: BlobStore;
  media: Pick<MediaService, 'url'>;
  /** `gallery.changed`. */
  emitChanged?: (change: { item: GalleryItem | null; id: string; removed: boolean }) => void;
  /** Where `save()` writes: Electron's dialog, else browser mode's one-time links. */
  saveTarget?: SaveTarget;
  now?: () => number;
}

/** A fresh item id: `gal_` + 96 random bits, base64url. */
export function newGalleryId(): string {
  return `gal_${randomBytes(12).toString('base64url')}`;
}

/** The long side of a thumbnail, at most (the contract's GalleryThumbSchema says why). */
const MAX_THUMB_SIDE = 512;

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif', 'video/mp4': 'mp4', 'video/quicktime': 'mov' };

/** A file name from a prompt: its first words, lowercase, joined by dashes, with the type's extension. */
export function nameFromPrompt(prompt: string, mime: string, kind: GalleryKind): string {
  const words = prompt
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu);
  const stem = (words ?? []).slice(0, 8).join('-').slice(0, 60).replace(/-+$/, '') || kind;
  return `${stem}.${EXTENSIONS[mime] ?? (kind === 'video' ? 'mp4' : 'img')}`;
}

function notFound(id: string): WorkbenchFailure {
  return new WorkbenchFailure({ code: 'not_found', message: `That gallery item (${id}) is no longer in the gallery.` });
}

export class GalleryService {
  private readonly now: () => number;

  constructor(private readonly deps: GalleryServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * Stores media and adds it to the gallery. Throws `invalid_input` when the bytes are neither an
   * image nor a video this app knows and no kind is given (so nothing unplayable lands in the gallery).
   */
  async add(input: GalleryAddInput): Promise<GalleryItem> {
    const { blob, probe } = await this.store(input.data);
    if (input.dedupe) {
      const existing = getGalleryItemByHash(this.deps.db, blob.hash);
      if (existing) return this.toItem(existing);
    }
    const kind = input.kind ?? (probe?.kind === 'image' || probe?.kind === 'video' ? probe.kind : null);
    const mime = input.mime ?? probe?.mime;
    if (!kind || !mime) {
      // Audio is never sniffed here: its callers (speech, recordings, transcription uploads) name its kind.
      throw new WorkbenchFailure({ code: 'invalid_input', message: `Those bytes are ${probe ? `a ${probe.label}` : 'of no type this app recognises'}; the gallery keeps images, videos and audio.` });
    }
    const prompt = input.prompt ?? '';
    const row: GalleryRow = {
      id: newGalleryId(),
      kind,
      origin: input.origin,
      hash: blob.hash,
      mime,
      bytes: blob.size,
      width: probe?.width ?? null,
      height: probe?.height ?? null,
      duration: input.duration !== undefined ? input.duration : (probe?.duration ?? null),
      prompt,
      revisedPrompt: input.revisedPrompt ?? null,
      model: input.model ?? null,
      name: input.name?.trim() || nameFromPrompt(prompt, mime, kind),
      createdAt: input.createdAt ?? this.now(),
      runId: input.runId ?? null,
      jobId: input.jobId ?? null,
      sourceIds: input.sourceIds ?? [],
      thumbHash: null,
      thumbMime: null,
    };
    insertGalleryItem(this.deps.db, row);
    const item = await this.toItem(row);
    this.deps.emitChanged?.({ item, id: item.id, removed: false });
    return item;
  }

  async list(input: GalleryListInput = {}): Promise<GalleryPage> {
    const page = listGallery(this.deps.db, { query: input?.query, kind: input?.kind, after: input?.after, limit: input?.limit ?? 200 });
    return { items: await Promise.all(page.items.map((row) => this.toItem(row))), total: page.total, next: page.next };
  }

  async get(id: string): Promise<GalleryItem> {
    const row = getGalleryItem(this.deps.db, id);
    if (!row) throw notFound(id);
    return this.toItem(row);
  }

  /**
   * Item `id` as input of run `runId`: linked to that run when no run has it yet (an input kept
   * when it was dropped, before the run that first sends it), so History's entry of that run shows it.
   */
  async sentBy(id: string, runId: string | null): Promise<GalleryItem> {
    if (runId) setGalleryRunIfNone(this.deps.db, id, runId);
    return this.get(id);
  }

  /** The row itself (media-sources reads the blob behind it). */
  row(id: string): GalleryRow | null {
    return getGalleryItem(this.deps.db, id);
  }

  /** Explicit delete: the row goes and its blob and thumbnail references are released. */
  remove(id: string): { removed: boolean } {
    const gone = deleteGalleryItem(this.deps.db, id);
    if (gone) this.deps.emitChanged?.({ item: null, id, removed: true });
    return { removed: gone !== null };
  }

  /** Keeps a thumbnail the page made; refuses bytes that are not the image type they claim. */
  async setThumb(input: { id: string; mime: string; bytes: Uint8Array }): Promise<GalleryItem> {
    if (!getGalleryItem(this.deps.db, input.id)) throw notFound(input.id);
    const probe = await probeBytes(input.bytes);
    if (!probe || probe.mime !== input.mime) {
      throw new WorkbenchFailure({
        code: 'invalid_input',
        message: `The thumbnail is ${probe ? `a ${probe.label}` : 'not an image'}, not the ${input.mime} it was sent as.`,
        issues: [{ path: 'bytes', message: 'not a valid thumbnail image' }],
      });
    }
    if (Math.max(probe.width ?? 0, probe.height ?? 0) > MAX_THUMB_SIDE) {
      throw new WorkbenchFailure({
        code: 'invalid_input',
        message: `The thumbnail is ${probe.width}×${probe.height}; thumbnails are at most ${MAX_THUMB_SIDE} px on their long side.`,
        issues: [{ path: 'bytes', message: `larger than ${MAX_THUMB_SIDE} px` }],
      });
    }
    const blob = await this.deps.blobs.put(input.bytes);
    if (!setGalleryThumb(this.deps.db, input.id, { ...blob, mime: input.mime }, this.now())) throw notFound(input.id);
    const item = await this.get(input.id);
    this.deps.emitChanged?.({ item, id: item.id, removed: false });
    return item;
  }

  async ofRun(runId: string): Promise<GalleryItem[]> {
    return Promise.all(galleryItemsOfRun(this.deps.db, runId).map((row) => this.toItem(row)));
  }

  async ofJob(jobId: string): Promise<GalleryItem[]> {
    return Promise.all(galleryItemsOfJob(this.deps.db, jobId).map((row) => this.toItem(row)));
  }

  async byHash(hash: string): Promise<GalleryItem | null> {
    const row = getGalleryItemByHash(this.deps.db, hash);
    return row ? this.toItem(row) : null;
  }

  /** Copies a file the user chose into the gallery as an `input` item (the same bytes again: that item). */
  keepInput(file: { path: string; name: string }): Promise<GalleryItem> {
    return this.add({ data: { path: file.path }, origin: 'input', name: file.name, dedupe: true });
  }

  /**
   * Saves the item's bytes: where the user chose (Electron; a temporary file renamed into place,
   * so a full disk leaves nothing half-written) or to a one-time link (browser mode).
   */
  async save(id: string): Promise<FileDownloadResult> {
    const row = getGalleryItem(this.deps.db, id);
    if (!row) throw notFound(id);
    if (!this.deps.saveTarget) throw new WorkbenchFailure({ code: 'unsupported', message: 'Saving is not available in this shell.' });
    const destination = await chooseDestination(this.deps.saveTarget, row.name);
    if (!destination) return { filename: row.name, bytes: 0, cancelled: true };
    const { dest, token } = destination;
    const temp = token ? dest : `${dest}.${randomBytes(6).toString('hex')}.part`;
    try {
      await copyFile(this.deps.blobs.pathOf(row.hash), temp);
      if (!token) await rename(temp, dest);
    } catch (error) {
      await rm(temp, { force: true });
      const detail = error instanceof Error ? error.message : String(error);
      throw new WorkbenchFailure({ code: 'internal', message: `“${row.name}” could not be saved (${detail}); nothing was written.` });
    }
    if (token) return { filename: row.name, bytes: row.bytes, url: this.deps.saveTarget.tickets.publish(token, { path: dest, filename: row.name, bytes: row.bytes }) };
    return { filename: row.name, bytes: row.bytes, savedTo: dest };
  }

  /**
   * The row with its media URLs. An item whose bytes are gone from the data folder (deleted by
   * hand) gets an empty `url` rather than failing the whole page it is listed in.
   */
  async toItem(row: GalleryRow): Promise<GalleryItem> {
    const { thumbHash, thumbMime, ...rest } = row;
    void thumbMime;
    return {
      ...rest,
      url: await this.deps.media.url(row.hash).catch(() => ({ url: '', expiresAt: null, mime: row.mime, size: row.bytes })),
      thumbUrl: thumbHash ? await this.deps.media.url(thumbHash).catch(() => null) : null,
    };
  }

  private async store(data: GalleryData): Promise<{ blob: BlobInfo; probe: MediaProbe | null }> {
    if (data instanceof Uint8Array) {
      const [blob, probe] = await Promise.all([this.deps.blobs.put(data), probeBytes(data)]);
      return { blob, probe };
    }
    if ('path' in data) {
      const blob = await this.deps.blobs.putFile(data.path);
      return { blob, probe: await probeFile(this.deps.blobs.pathOf(blob.hash)) };
    }
    return { blob: data.blob, probe: await probeFile(this.deps.blobs.pathOf(data.blob.hash)) };
  }
}
