/**
 * The job centre's arrival links: what `/videos?…` asks the form to start from.
 *
 *   ?image=<gallery id>            image-to-video from a gallery image
 *   ?edit=<gallery id>             edit a gallery video      ?extend=<gallery id>  extend one
 *   ?file=<Files id>[&as=…]        an uploaded file (its type decides, unless `as` says)
 *   ?ref=<ref>[&as=image|edit|extend][&name=]  a file dropped anywhere (the drop router)
 *
 * Each becomes an input chip and a mode; names and types are looked up where they are known.
 */
import type { WorkbenchApi } from '@shared/contract/api';
import { FileIdSchema } from '@shared/families/files/contract';
import { GalleryItemIdSchema } from '@shared/contract/gallery';
import type { FileRef } from '@shared/contract/user-files';
import { FileRefIdSchema } from '@shared/contract/user-files';
import type { VideoMode } from '@shared/families/videos/contract';
import type { MediaChip } from './video-form';

/** The query keys this reads (the view removes them once the form is filled). */
export const VIDEO_QUERY_KEYS = ['image', 'edit', 'extend', 'file', 'ref', 'as', 'name'] as const;

export type VideoQueryFill = { mode: VideoMode; chip: MediaChip; message: string } | { problem: string };

type Query = Record<string, unknown>;
type Api = Pick<WorkbenchApi, 'gallery' | 'files'>;

function one(query: Query, key: string): string | null {
  const value = query[key];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first ? first : null;
}

function modeOf(as: string | null, mime: string, name: string): VideoMode {
  if (as === 'edit' || as === 'extend') return as;
  if (as === 'image') return 'generate';
  return mime.startsWith('video/') || /\.mp4$/i.test(name) ? 'edit' : 'generate';
}

async function fromGallery(api: Api, id: string, mode: VideoMode): Promise<VideoQueryFill> {
  if (!GalleryItemIdSchema.safeParse(id).success) return { problem: `"${id}" is not a gallery item id.` };
  const kind = mode === 'generate' ? 'image' : 'video';
  try {
    const item = await api.gallery.get({ id });
    if (item.kind !== kind) return { problem: `Gallery item "${item.name}" is ${item.kind === 'image' ? 'an image' : 'a video'}; ${mode === 'generate' ? 'a video starts from an image' : `only a video can be ${mode === 'edit' ? 'edited' : 'extended'}`}.` };
    return { mode, chip: { source: { kind: 'gallery', id }, label: item.name, kind, mime: item.mime }, message: `Form filled from the gallery (${item.name}).` };
  } catch {
    // Offline or gone: the create will say; the chip still names it.
    return { mode, chip: { source: { kind: 'gallery', id }, label: `Gallery ${kind} ${id}`, kind, mime: '' }, message: 'Form filled from the gallery.' };
  }
}

async function fromFile(api: Api, fileId: string, as: string | null): Promise<VideoQueryFill> {
  if (!FileIdSchema.safeParse(fileId).success) return { problem: `"${fileId}" is not a Files id.` };
  let name = fileId;
  let mime = '';
  try {
    const record = await api.files.get({ id: fileId });
    if (record.status === 'deleted' || record.status === 'expired') return { problem: `File ${fileId} is ${record.status}; upload it again.` };
    name = record.filename;
    mime = record.contentType;
  } catch {
    // Unknown here: the create checks it.
  }
  const mode = modeOf(as, mime, name);
  return { mode, chip: { source: { kind: 'file', fileId }, label: name, kind: mode === 'generate' ? 'image' : 'video', mime }, message: `Form filled with file ${name}.` };
}

function fromRef(ref: FileRef, as: string | null): VideoQueryFill {
  if (!FileRefIdSchema.safeParse(ref.ref).success) return { problem: 'That link’s dropped file is not a valid reference.' };
  const mode = modeOf(as, ref.type, ref.name);
  return { mode, chip: { source: { kind: 'ref', ref: ref.ref }, label: ref.name, kind: mode === 'generate' ? 'image' : 'video', mime: ref.type }, message: `Form filled with ${ref.name}.` };
}

/** What the query asks for, or null when it asks nothing. */
export async function readVideoQuery(query: Query, api: Api, dropped: (ref: string) => FileRef | undefined): Promise<VideoQueryFill | null> {
  const as = one(query, 'as');
  const image = one(query, 'image');
  if (image) return fromGallery(api, image, 'generate');
  const edit = one(query, 'edit');
  if (edit) return fromGallery(api, edit, 'edit');
  const extend = one(query, 'extend');
  if (extend) return fromGallery(api, extend, 'extend');
  const file = one(query, 'file');
  if (file) return fromFile(api, file, as);
  const ref = one(query, 'ref');
  // This page's drop is known by name and type; a reloaded link only by the name it carries.
  if (ref) return fromRef(dropped(ref) ?? { ref, name: one(query, 'name') ?? 'dropped file', size: 0, type: '' }, as);
  return null;
}
