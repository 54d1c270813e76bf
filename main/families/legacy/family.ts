/** Legacy completions: the service answers the `completions` contract family (`/v1/completions`, `/v1/complete`). */
import { completionsContract } from '../../../shared/families/legacy/contract';
import { CompletionsService } from './completions-service';
import { bindOps } from '../bind';
import type { FamilyDeps, MainFamily } from '../types';

export const legacyMain = {
  id: 'legacy',
  contract: 'completions',
  create(deps: FamilyDeps) {
    const service = new CompletionsService({ db: deps.db, blobs: deps.blobs, connections: deps.connections, models: deps.models });
    return { handlers: bindOps(completionsContract, service) };
  },
} as const satisfies MainFamily;
