/**
 * Stand-ins for what the images branch brings (GalleryService and media-sources.ts), so video
 * jobs run end to end before it is merged. Replaced at the merge by adapters over those two;
 * nothing else depends on this file. The gallery stand-in keeps the MP4 in the blob store (with
 * its reference, so the sweep leaves it) and the item in memory only.
 */
import { randomUUID } from 'node:crypto';
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { GalleryItem } from '../../shared/contract/gallery';
import type { MediaSource } from '../../shared/contract/images';
import { addBlobRef } from '../store/blob-rows';
import type { BlobStore } from '../store/blobs';
import type { Db } from '../store/db';
import type { MediaUrlOf } from './media-service';
import type { NewGalleryVideo, VideoGallery } from './video-job';
import type { ResolvedVideoInput, VideoInputResolver } from './videos-service';

export function interimVideoGallery(db: Db, blobs: BlobStore, urlOf: MediaUrlOf, now: () => number = Date.now): VideoGallery {
  const items = new Map<string, GalleryItem>();
  return {
    async addVideo(video: NewGalleryVideo): Promise<GalleryItem> {
      const blob = await blobs.putFile(video.path);
      addBlobRef(db, { ...blob, mime: video.mime }, now());
      const { url, expiresAt } = urlOf(blob.hash);
      const item: GalleryItem = {
        id: `gal_${randomUUID().replace(/-/g, '')}`,
        kind: 'video',
        origin: video.origin,
        hash: blob.hash,
        mime: video.mime,
        bytes: blob.size,
        width: null,
        height: null,
        duration: video.duration,
        prompt: video.prompt,
        revisedPrompt: null,
        model: video.model,
        name: video.name,
        createdAt: now(),
        runId: video.runId,
        jobId: video.jobId,
        sourceIds: video.sourceIds,
        url: { url, expiresAt, mime: video.mime, size: blob.size },
        thumbUrl: null,
      };
      items.set(item.id, item);
      return item;
    },
    get: (id) => items.get(id) ?? null,
  };
}

/** URLs and Files ids only; dropped files and gallery items need media-sources.ts (images branch). */
export const interimVideoInputs: VideoInputResolver = {
  async resolve(source: MediaSource, want): Promise<ResolvedVideoInput> {
    if (source.kind === 'file') return { wire: { file_id: source.fileId }, label: `${want}: file ${source.fileId}`, galleryId: null };
    if (source.kind === 'url') {
      const shown = source.url.startsWith('data:') ? `${source.url.slice(0, source.url.indexOf(',') + 1)}…` : source.url;
      return { wire: { url: source.url }, label: `${want}: ${shown.slice(0, 80)}`, galleryId: null };
    }
    throw new WorkbenchFailure({ code: 'unsupported', message: `A ${source.kind === 'ref' ? 'dropped file' : 'gallery item'} as a video input is not wired yet: upload it to Files and use its file id.` });
  },
};
