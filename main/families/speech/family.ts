/** Speech: text to speech over REST and the WebSocket, its audio kept in the gallery. */
import { speechContract } from '../../../shared/families/speech/contract';
import { SpeechService } from './speech-service';
import { bindOps } from '../bind';
import type { FamilyDeps, MainFamily } from '../types';

export const speechMain = {
  id: 'speech',
  contract: 'speech',
  create(deps: FamilyDeps) {
    const service = new SpeechService({ db: deps.db, connections: deps.connections, gallery: deps.gallery, media: deps.media });
    return { handlers: bindOps(speechContract, service) };
  },
} as const satisfies MainFamily;
