/**
 * What video jobs need of the gallery and of media-sources, as the small interfaces the job and
 * the service were written against: the finished MP4 into the gallery (once per job: a resumed
 * job that already added it gets the same item back), and a MediaSource as the wire's `{url}` or
 * `{file_id}` (images JPEG/PNG/WebP; videos MP4, inline only up to VIDEO_INLINE_MAX_BYTES, else
 * "upload it to Files first"). Media sent from here is kept in the gallery as an input.
 */
import { formatBytes } from '../../../shared/byte-size';
import { WorkbenchFailure } from '../../../shared/contract/errors';
import type { GalleryItem } from '../../../shared/contract/gallery';
import type { MediaSource } from '../../../shared/families/images/contract';
import type { Db } from '../../store/db';
import { getFileById } from '../../store/files';
import type { GalleryService } from '../../services/gallery-service';
import { IMAGE_INPUT, MP4_INPUT, resolveMediaSource, type MediaSourceDeps } from '../../services/media-sources';
import type { NewGalleryVideo, VideoGallery } from './video-job';
import { VIDEO_INLINE_MAX_BYTES, type ResolvedVideoInput, type VideoInputResolver } from './videos-service';

type Gallery = Pick<GalleryService, 'add' | 'get' | 'ofJob'>;

/** The gallery as video jobs use it; `gallery()` is read at call time (the service is built after the job kinds). */
export function videoGallery(gallery: () => Gallery): VideoGallery {
  return {
    async addVideo(video: NewGalleryVideo): Promise<GalleryItem> {
      const already = (await gallery().ofJob(video.jobId)).find((item) => item.kind === 'video');
      if (already) return already;
      return gallery().add({
        data: { path: video.path },
        origin: video.origin,
        kind: 'video',
        mime: video.mime,
        prompt: video.prompt,
        model: video.model,
        name: video.name,
        runId: video.runId,
        jobId: video.jobId,
        sourceIds: video.sourceIds,
        duration: video.duration,
      });
    },
    async get(id: string): Promise<GalleryItem | null> {
      try {
        return await gallery().get(id);
      } catch {
        return null;
      }
    },
  };
}

const VIDEO_INLINE = { ...MP4_INPUT, maxBytes: VIDEO_INLINE_MAX_BYTES };

export function videoInputs(deps: MediaSourceDeps & { gallery: Gallery & MediaSourceDeps['gallery']; db: Db }): VideoInputResolver {
  return {
    async resolve(source: MediaSource, want, connection): Promise<ResolvedVideoInput> {
      const field = want === 'image' ? 'image' : 'video';
      // A Files id the app knows is gone (expired, deleted) is refused before anything is sent.
      const fileRecord = (fileId: string) => getFileById(deps.db, connection.profile.id, fileId, (deps.now ?? Date.now)());
      let resolved;
      try {
        resolved = await resolveMediaSource({ ...deps, fileRecord }, source, {
          field,
          accept: want === 'image' ? IMAGE_INPUT : VIDEO_INLINE,
          purpose: want === 'image' ? 'image-to-video and reference images' : 'video edits and extensions sent from the app',
        });
      } catch (error) {
        // Too big to send inline: say what to do instead, and the limit.
        if (want === 'video' && error instanceof WorkbenchFailure && /up to/.test(error.error.message)) {
          throw new WorkbenchFailure({
            ...error.error,
            message: `${error.error.message} Upload it to Files first and choose its file id (videos over ${formatBytes(VIDEO_INLINE_MAX_BYTES)} are not sent inline).`,
          });
        }
        throw error;
      }
      let galleryId = resolved.local?.galleryId ?? null;
      if (resolved.local && !galleryId) {
        const kept = await deps.gallery.add({ data: resolved.local.bytes, origin: 'input', kind: want, mime: resolved.local.mime, name: resolved.local.name || undefined, dedupe: true });
        galleryId = kept.id;
      }
      const label =
        source.kind === 'file'
          ? `${want}: file ${source.fileId}`
          : source.kind === 'url' && !source.url.startsWith('data:')
            ? `${want}: ${source.url.slice(0, 80)}`
            : `${want}: ${resolved.local?.name || (source.kind === 'gallery' ? 'gallery item' : 'data URL')}`;
      return { wire: resolved.wire, label, galleryId };
    },
  };
}
