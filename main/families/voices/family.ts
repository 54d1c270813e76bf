/** Voices: built-in and custom voices, clone / edit / delete recorded in History, reference and preview audio as blobs. */
import { voicesContract } from '../../../shared/families/voices/contract';
import { bindOps } from '../bind';
import type { FamilyDeps, MainFamily } from '../types';
import { VoicesService } from './voices-service';

export const voicesMain = {
  id: 'voices',
  contract: 'voices',
  create(deps: FamilyDeps) {
    const service = new VoicesService({ db: deps.db, blobs: deps.blobs, connections: deps.connections, userFiles: deps.userFiles, emitChanged: (changed) => deps.emit('voices.changed', changed) });
    return { handlers: bindOps(voicesContract, service) };
  },
} as const satisfies MainFamily;
