/**
 * What every route module shares: the clock, pacing settings, and the sandbox's in-memory state.
 * One per running sandbox, so two sandboxes in one process never see each other's data.
 */
import type { PrefixCache } from './chat/prefix-cache';
import type { Clock } from './clock';
import type { DeferredStore } from './deferred';

export interface SandboxEnv {
  clock: Clock;
  tokenDelayMs: number;
  deferredDelayMs: number;
  deferred: DeferredStore;
  prefixCache: PrefixCache;
  log: (line: string) => void;
}
