/**
 * Media the user gives to an edit or a video (a MediaSource) turned into what the service's JSON
 * takes: a file they picked or dropped and a gallery item become a base64 data URL, a Files id is
 * passed as `file_id`, a URL as it is. Everything local is checked first, by magic bytes and size,
 * so a wrong file is explained before anything is sent ("images[1]: “cat.gif” is a GIF; edits take
 * JPEG, PNG or WebP."). What was sent from here can then be kept in the gallery as an input.
 */
import { readFile } from 'node:fs/promises';
import { formatBytes } from '../../shared/byte-size';
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { FileRecord } from '../../shared/families/files/contract';
import type { GalleryItem } from '../../shared/contract/gallery';
import type { MediaSource } from '../../shared/families/images/contract';
import { IMAGE_INPUT_MIME_TYPES, IMAGE_LIMITS } from '../../shared/wire/images';
import type { BlobStore } from '../store/blobs';
import type { GalleryRow } from '../store/gallery';
import type { GalleryService } from './gallery-service';
import { probeBytes, type MediaProbe } from './media-probe';
import type { ResolvedFile } from './user-files';

/** What a use of media accepts: its types (by magic bytes), how they read, and the largest size. */
export interface MediaAccept {
  kind: 'image' | 'video';
  mimes: readonly string[];
  /** The types as a person reads them: "JPEG, PNG or WebP". */
  describe: string;
  maxBytes: number;
}

/** Input images of edits and image-to-video. */
export const IMAGE_INPUT: MediaAccept = { kind: 'image', mimes: IMAGE_INPUT_MIME_TYPES, describe: 'JPEG, PNG or WebP', maxBytes: IMAGE_LIMITS.maxInputImageBytes };

/** Input videos of video edits and extensions (the size limit is the caller's to choose). */
export const MP4_INPUT: MediaAccept = { kind: 'video', mimes: ['video/mp4'], describe: 'MP4', maxBytes: 50 * 1024 * 1024 };

export interface MediaSourceDeps {
  userFiles: { resolve(ref: string): ResolvedFile };
  gallery: Pick<GalleryService, 'row'>;
  blobs: Pick<BlobStore, 'pathOf'>;
  /** The app's record of a Files id on the request's connection, to refuse one known to be gone. */
  fileRecord?: (fileId: string) => FileRecord | null;
  now?: () => number;
}

export interface MediaSourceOptions {
  /** The field it came from, as the error names it: `images[1]`, `image`, `video`. */
  field: string;
  accept: MediaAccept;
  /** What takes it, for the error: "edits", "image-to-video". */
  purpose: string;
}

/** Media that went out from here (a picked file, a gallery item, a data URL): kept as an input. */
export interface LocalMedia {
  bytes: Buffer;
  mime: string;
  name: string;
  /** The gallery item it already is, when it came from the gallery. */
  galleryId: string | null;
}

export interface ResolvedMediaSource {
  /** What the request's JSON carries. */
  wire: { url: string } | { file_id: string };
  local: LocalMedia | null;
}

const DATA_URL = /^data:([a-z0-9.+-]+\/[a-z0-9.+-]+)?(;[^,]*)?;base64,(.*)$/is;

function refuse(field: string, message: string): WorkbenchFailure {
  return new WorkbenchFailure({ code: 'invalid_input', message: `${field}: ${message}`, issues: [{ path: field, message }] });
}

/** Refuses media whose bytes are not an accepted type or are too big; returns the MIME type they are. */
export async function checkMedia(bytes: Uint8Array, name: string, options: MediaSourceOptions): Promise<string> {
  const { field, accept, purpose } = options;
  const what = name ? `“${name}”` : 'That file';
  if (bytes.length > accept.maxBytes) {
    throw refuse(field, `${what} is ${formatBytes(bytes.length)}; ${purpose} take ${accept.kind === 'image' ? 'images' : 'videos'} up to ${formatBytes(accept.maxBytes)}.`);
  }
  const probe: MediaProbe | null = bytes.length === 0 ? null : await probeBytes(bytes);
  if (!probe || !accept.mimes.includes(probe.mime)) {
    const is = bytes.length === 0 ? 'is empty' : probe ? `is ${/^[AEIOU]/.test(probe.label) ? 'an' : 'a'} ${probe.label}` : `is not ${accept.kind === 'image' ? 'an image' : 'a video'} this app can read`;
    throw refuse(field, `${what} ${is}; ${purpose} take ${accept.describe}.`);
  }
  return probe.mime;
}

/**
 * Turns one MediaSource into the wire's `{url}` or `{file_id}`, checking local bytes first.
 * Throws `invalid_input` naming `options.field`, or `not_found` for a gone reference or item.
 */
export async function resolveMediaSource(deps: MediaSourceDeps, source: MediaSource, options: MediaSourceOptions): Promise<ResolvedMediaSource> {
  switch (source.kind) {
    case 'ref': {
      let file: ResolvedFile;
      try {
        file = deps.userFiles.resolve(source.ref);
      } catch (error) {
        if (error instanceof WorkbenchFailure) throw new WorkbenchFailure({ ...error.error, message: `${options.field}: ${error.error.message}`, issues: [{ path: options.field, message: error.error.message }] });
        throw error;
      }
      if (file.size > options.accept.maxBytes) await checkMedia(new Uint8Array(file.size), file.name, options);
      const bytes = await readFile(file.path);
      return local(bytes, await checkMedia(bytes, file.name, options), file.name, null);
    }
    case 'gallery': {
      const row: GalleryRow | null = deps.gallery.row(source.id);
      if (!row) throw new WorkbenchFailure({ code: 'not_found', message: `${options.field}: that gallery item is no longer in the gallery; choose another.`, issues: [{ path: options.field, message: 'no longer in the gallery' }] });
      if (row.bytes > options.accept.maxBytes) await checkMedia(new Uint8Array(row.bytes), row.name, options);
      const bytes = await readFile(deps.blobs.pathOf(row.hash));
      return local(bytes, await checkMedia(bytes, row.name, options), row.name, row.id);
    }
    case 'file': {
      const record = deps.fileRecord?.(source.fileId) ?? null;
      if (record && (record.status === 'expired' || record.status === 'deleted')) {
        throw refuse(options.field, `${source.fileId} (“${record.filename}”): ${record.statusMessage ?? `the file was ${record.status}; upload it again.`}`);
      }
      return { wire: { file_id: source.fileId }, local: null };
    }
    case 'url': {
      const m = DATA_URL.exec(source.url);
      if (!source.url.startsWith('data:')) return { wire: { url: source.url }, local: null };
      if (!m) throw refuse(options.field, `that data URL is not base64 (it should look like data:image/png;base64,...).`);
      const bytes = Buffer.from(m[3], 'base64');
      const mime = await checkMedia(bytes, '', options);
      return local(bytes, mime, '', null, `data:${mime};base64,${m[3]}`);
    }
  }
}

function local(bytes: Buffer, mime: string, name: string, galleryId: string | null, url?: string): ResolvedMediaSource {
  return { wire: { url: url ?? `data:${mime};base64,${bytes.toString('base64')}` }, local: { bytes, mime, name, galleryId } };
}

/** Resolves several sources in order, naming each by `field(i)` (`images[0]`, `images[1]`, ...). */
export async function resolveMediaSources(
  deps: MediaSourceDeps,
  sources: readonly MediaSource[],
  options: Omit<MediaSourceOptions, 'field'> & { field: (index: number) => string },
): Promise<ResolvedMediaSource[]> {
  const out: ResolvedMediaSource[] = [];
  for (const [i, source] of sources.entries()) out.push(await resolveMediaSource(deps, source, { ...options, field: options.field(i) }));
  return out;
}

/**
 * Keeps what was sent from here in the gallery as `input` items (one item per distinct bytes: an
 * image sent again, or a gallery item sent back, is the item it already is). Returns the items,
 * in the order of `sent`, skipping sources the service fetched itself (Files ids, public URLs).
 */
export async function keepInputs(
  gallery: Pick<GalleryService, 'add' | 'sentBy'>,
  sent: readonly ResolvedMediaSource[],
  meta: { runId: string | null; kind: 'image' | 'video' },
): Promise<GalleryItem[]> {
  const items: GalleryItem[] = [];
  for (const source of sent) {
    if (!source.local) continue;
    const { bytes, mime, name, galleryId } = source.local;
    const item = galleryId
      ? await gallery.sentBy(galleryId, meta.runId)
      : await gallery.add({ data: bytes, origin: 'input', kind: meta.kind, mime, name: name || undefined, runId: meta.runId, dedupe: true });
    if (!items.some((i) => i.id === item.id)) items.push(item);
  }
  return items;
}
