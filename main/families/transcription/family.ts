/** Transcription: `transcribe` a recording over REST and read a run's result again. */
import { transcriptionContract } from '../../../shared/families/transcription/contract';
import { bindOps } from '../bind';
import type { FamilyDeps, MainFamily } from '../types';
import { TranscriptionService } from './transcription-service';

export const transcriptionMain = {
  id: 'transcription',
  contract: 'transcription',
  create(deps: FamilyDeps) {
    const service = new TranscriptionService({ db: deps.db, connections: deps.connections, userFiles: deps.userFiles, gallery: deps.gallery, files: deps.files });
    return { handlers: bindOps(transcriptionContract, service) };
  },
} as const satisfies MainFamily;
