/** Chat: the service (streamed, plain and deferred sends; following a deferred run) and the deferred-chat job. */
import { chatContract } from '../../../shared/families/chat/contract';
import { ChatService } from './chat-service';
import { deferredChatJob } from './deferred-chat-job';
import { bindOps } from '../bind';
import type { FamilyDeps, MainFamily } from '../types';

export const chatMain = {
  id: 'chat',
  contract: 'chat',
  create(deps: FamilyDeps) {
    const service = new ChatService({ db: deps.db, blobs: deps.blobs, connections: deps.connections, models: deps.models, jobs: deps.jobs });
    return {
      handlers: bindOps(chatContract, service),
      defineJobs: (queue) => queue.define(deferredChatJob({ connections: deps.connections, models: deps.models, pollMs: deps.deferredPollMs })),
    };
  },
} as const satisfies MainFamily;
