/** Video jobs and gallery videos as main would send them, for the job centre's tests. */
import type { GalleryItem } from '@shared/contract/gallery';
import type { VideoJob } from '@shared/families/videos/contract';

export const NOW = 1_780_000_000_000;

/** A pending generation, 1:05 old at NOW. */
export function makeVideoJob(over: Partial<VideoJob> = {}): VideoJob {
  return {
    id: 'job_1', cardId: 'card_1', mode: 'generate', state: 'pending', connectionId: 'sandbox', model: 'svc-video-1', prompt: 'a cat surfing',
    duration: 8, aspectRatio: '16:9', resolution: '720p', inputs: ['image cat.png'], requestId: 'req_1', progress: 42, createdAt: NOW - 65_000, updatedAt: NOW,
    finishedAt: null, costTicks: null, error: null, storageError: null, fileOutput: null, video: null, runId: 'run_1', attempt: 1, nextPollAt: null, waiting: null, request: null, ...over,
  };
}

/** The finished video of makeVideoJob(), in the gallery. */
export function makeVideoItem(over: Partial<GalleryItem> = {}): GalleryItem {
  return {
    id: 'gal_video0001', kind: 'video', origin: 'generated', hash: 'b'.repeat(64), mime: 'video/mp4', bytes: 1000, width: 1280, height: 720, duration: 8,
    prompt: 'a cat surfing', revisedPrompt: null, model: 'svc-video-1', name: 'a-cat-surfing.mp4', createdAt: NOW, runId: 'run_1', jobId: 'job_1', sourceIds: [],
    url: { url: `/media/${'b'.repeat(64)}?t=tok`, expiresAt: null, mime: 'video/mp4', size: 1000 }, thumbUrl: null, ...over,
  };
}

