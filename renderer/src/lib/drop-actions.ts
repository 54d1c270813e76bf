/**
 * What a file dropped anywhere can become (the drop router's offer), by its type: a JPEG, PNG or
 * WebP image can be edited in Images or made into a video; an MP4 can be edited or extended; any
 * file can be uploaded to Files. Several files at once can only be uploaded. Each action is a
 * route the target view reads (`?ref=` the dropped file's reference, `name=` its name).
 */
import type { RouteLocationRaw } from 'vue-router';
import { IMAGE_INPUT_MIME_TYPES } from '@shared/wire/images';
import { VIDEO_IMAGE_MIME_TYPES } from '@shared/wire/videos';
import { STT_CONTAINER_FORMATS, STT_CONTAINER_MIME_TYPES } from '@shared/families/transcription/contract';

export type DropActionId = 'edit-image' | 'image-to-video' | 'edit-video' | 'extend-video' | 'transcribe' | 'clone-voice' | 'upload';

export interface DropAction {
  id: DropActionId;
  label: string;
}

export interface DropOffer {
  actions: DropAction[];
  /** Why some actions are missing (a type no media action fits), or null. */
  note: string | null;
}

/** What a dropped file is known by. */
export interface DroppedFileInfo {
  name: string;
  type: string;
}

const EXTENSION_TYPES: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', mp4: 'video/mp4', wav: 'audio/wav', mp3: 'audio/mpeg', flac: 'audio/flac', ogg: 'audio/ogg', opus: 'audio/ogg' };

/** The file's MIME type, from its name when the browser gave none. */
export function droppedType(file: DroppedFileInfo): string {
  if (file.type) return file.type.toLowerCase();
  const ext = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';
  return EXTENSION_TYPES[ext] ?? '';
}

const UPLOAD: DropAction = { id: 'upload', label: 'Upload to Files' };

export function dropOffer(files: readonly DroppedFileInfo[]): DropOffer {
  if (files.length > 1) return { actions: [{ id: 'upload', label: `Upload ${files.length} files to Files` }], note: 'Drop one file at a time to edit it or make a video from it.' };
  const file = files[0];
  if (!file) return { actions: [], note: 'Nothing was dropped.' };
  const type = droppedType(file);
  const actions: DropAction[] = [];
  if ((IMAGE_INPUT_MIME_TYPES as readonly string[]).includes(type)) actions.push({ id: 'edit-image', label: 'Edit in Images' });
  if ((VIDEO_IMAGE_MIME_TYPES as readonly string[]).includes(type)) actions.push({ id: 'image-to-video', label: 'Make a video from it' });
  if (type === 'video/mp4') actions.push({ id: 'edit-video', label: 'Edit video' }, { id: 'extend-video', label: 'Extend video' });
  // The containers the service decodes (WAV, MP3, FLAC, Ogg Opus) serve both: a transcript, or a voice's reference clip.
  if ((STT_CONTAINER_MIME_TYPES as readonly string[]).includes(type)) actions.push({ id: 'transcribe', label: 'Transcribe' }, { id: 'clone-voice', label: 'Clone a voice' });
  actions.push(UPLOAD);
  let note: string | null = null;
  if (actions.length === 1) {
    const what = type || 'this file type';
    note = type.startsWith('image/')
      ? `${what} can only be uploaded: Images and videos take JPEG, PNG or WebP images.`
      : type.startsWith('audio/')
        ? `${what} can only be uploaded: transcription and voice cloning take ${STT_CONTAINER_FORMATS}.`
        : type.startsWith('video/')
        ? `${what} can only be uploaded: video edits and extensions take MP4 only.`
        : `No image or video action fits ${what === 'this file type' ? 'this file type' : what}; it can be uploaded to Files.`;
  }
  return { actions, note };
}

/**
 * Where an action goes with the dropped files' references (and the file's name, so a reloaded
 * link still says what it is).
 */
export function dropRoute(action: DropActionId, refs: readonly { ref: string; name: string }[]): RouteLocationRaw {
  const { ref, name } = refs[0] ?? { ref: '', name: '' };
  switch (action) {
    case 'edit-image':
      return { path: '/images', query: { ref, name } };
    case 'image-to-video':
      return { path: '/videos', query: { ref, as: 'image', name } };
    case 'edit-video':
      return { path: '/videos', query: { ref, as: 'edit', name } };
    case 'extend-video':
      return { path: '/videos', query: { ref, as: 'extend', name } };
    case 'transcribe':
      return { path: '/transcription', query: { ref, name } };
    case 'clone-voice':
      return { path: '/voices', query: { ref, name } };
    case 'upload':
      return { path: '/files', query: { upload: refs.map((r) => r.ref) } };
  }
}
