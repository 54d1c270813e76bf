/** Responses: creates, stored responses (retrieve, delete), compaction and the local chains. */
import { responsesContract } from '../../../shared/families/responses/contract';
import { ResponsesService } from './responses-service';
import { bindOps } from '../bind';
import type { FamilyDeps, MainFamily } from '../types';

export const responsesMain = {
  id: 'responses',
  contract: 'responses',
  create(deps: FamilyDeps) {
    const service = new ResponsesService({ db: deps.db, blobs: deps.blobs, connections: deps.connections, models: deps.models });
    return { handlers: bindOps(responsesContract, service) };
  },
} as const satisfies MainFamily;
