/** Transcription: `transcribe` a recording over REST and read a run's result again. */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { transcriptionContract } from '../../../shared/families/transcription/contract';
import { bindOps } from '../bind';
import type { FamilyDeps, MainFamily } from '../types';
import { TranscriptionService } from './transcription-service';

export const transcriptionMain = {
  id: 'transcription',
  contract: 'transcription',
  async create(deps: FamilyDeps) {
    // Audio fetched to be kept (a Files id, a URL): a download cut by a quit is left here, so it goes at start.
    const tempDir = join(deps.dataDir, 'transcription-downloads');
    await rm(tempDir, { recursive: true, force: true });
    const service = new TranscriptionService({ db: deps.db, connections: deps.connections, userFiles: deps.userFiles, gallery: deps.gallery, files: deps.files, remoteAudio: { tempDir } });
    return { handlers: bindOps(transcriptionContract, service) };
  },
} as const satisfies MainFamily;
