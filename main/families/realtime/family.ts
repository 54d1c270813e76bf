/**
 * Realtime: the call console's family in main. The call itself is the `realtime` live kind
 * (main/live, started with `live.start`); this module answers only the family's own operations.
 */
import { realtimeContract } from '../../../shared/families/realtime/contract';
import { bindOps } from '../bind';
import type { MainFamily } from '../types';

export const realtimeMain = {
  id: 'realtime',
  contract: 'realtime',
  create() {
    return { handlers: bindOps(realtimeContract, {}) };
  },
} as const satisfies MainFamily;
