/** Messages: the service. */
import { messagesContract } from '../../../shared/families/messages/contract';
import { MessagesService } from './messages-service';
import { bindOps } from '../bind';
import type { FamilyDeps, MainFamily } from '../types';

export const messagesMain = {
  id: 'messages',
  contract: 'messages',
  create(deps: FamilyDeps) {
    const service = new MessagesService({ db: deps.db, blobs: deps.blobs, connections: deps.connections, models: deps.models });
    return { handlers: bindOps(messagesContract, service) };
  },
} as const satisfies MainFamily;
