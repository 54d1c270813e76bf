/** Videos: durable video jobs (the `video` job kind) and the service the job centre talks to. */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { videosContract } from '../../../shared/families/videos/contract';
import { videoJob } from './video-job';
import { videoFileLinker } from './video-files';
import { videoGallery, videoInputs } from './video-media';
import { VideosService } from './videos-service';
import { bindOps } from '../bind';
import type { FamilyDeps, MainFamily } from '../types';

export const videosMain = {
  id: 'videos',
  contract: 'videos',
  async create(deps: FamilyDeps) {
    const gallery = videoGallery(() => deps.gallery);
    // Video downloads land here whole before they join the gallery; what is left is from a crash.
    const tempDir = join(deps.dataDir, 'video-downloads');
    await rm(tempDir, { recursive: true, force: true });
    const job = videoJob({
      db: deps.db,
      connections: deps.connections,
      blobs: deps.blobs,
      gallery,
      tempDir,
      log: deps.log,
      pollMs: deps.videoPollMs?.first,
      maxPollMs: deps.videoPollMs?.max,
      linkFile: videoFileLinker({ db: deps.db, get: (ref) => deps.files.get(ref), emitChanged: (record) => deps.emit('files.changed', record) }),
    });
    const service = new VideosService({
      db: deps.db,
      jobs: deps.jobs,
      blobs: deps.blobs,
      connections: deps.connections,
      gallery,
      inputs: videoInputs({ userFiles: deps.userFiles, gallery: deps.gallery, blobs: deps.blobs, db: deps.db }),
      emitChanged: (changed) => deps.emit('videos.changed', changed),
      notify: deps.notify,
      log: deps.log,
    });
    return { handlers: bindOps(videosContract, service), defineJobs: (queue) => queue.define(job) };
  },
} as const satisfies MainFamily;
