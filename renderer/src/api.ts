/**
 * The renderer's one injection point for the contract. main.ts provides the bridge's `workbench`
 * (and its connection status) before mounting; tests provide an in-memory fake. Stores call
 * useWorkbench() lazily, so they never import the bridge (which connects on import) themselves.
 */
import { shallowRef, type Ref } from 'vue';
import type { WorkbenchApi } from '@shared/contract/api';

/** The bridge's link state ('connected' in Electron and in tests). */
export type LinkStatus = 'connecting' | 'connected' | 'disconnected' | 'no-token' | 'unauthorized';

let current: WorkbenchApi | null = null;
const connectedAlways = shallowRef<LinkStatus>('connected');
let status: Readonly<Ref<LinkStatus>> | null = null;

/** Sets the api every store uses from now on (the bridge at start-up, a fake in tests). */
export function provideWorkbench(api: WorkbenchApi, linkStatus?: Readonly<Ref<LinkStatus>>): void {
  current = api;
  if (linkStatus) status = linkStatus;
}

/** The api provided at start-up; throws if nothing was provided (a wiring bug, not a user error). */
export function useWorkbench(): WorkbenchApi {
  if (!current) throw new Error('workbench api not provided: call provideWorkbench() before using a store');
  return current;
}

/** The link to main, for the global status area. */
export function useLinkStatus(): Readonly<Ref<LinkStatus>> {
  return status ?? connectedAlways;
}
