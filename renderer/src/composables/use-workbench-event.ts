/**
 * Subscribes to one of the contract's events for as long as the calling effect scope (a
 * component's setup, a store, an effectScope) lives: `useWorkbenchEvent('connections', 'changed',
 * (state) => ...)`. The family and event names and the payload type come from the contract, so a
 * misspelt event or a wrong payload type is a compile error.
 */
import { getCurrentScope, onScopeDispose } from 'vue';
import { eventMethodName, type EventFamily, type EventName, type PayloadOf } from '@shared/contract/define';
import type { WorkbenchContract } from '@shared/contract/index';
import { useWorkbench } from '../api';

/** The payload of event `E` of family `F`. */
export type WorkbenchEventPayload<F extends EventFamily<WorkbenchContract>, E extends EventName<WorkbenchContract, F>> = PayloadOf<
  WorkbenchContract[F][E]
>;

/**
 * Calls `callback` with every `family.event` main pushes until the current scope ends. Returns the
 * unsubscribe function too (outside a scope it is the only way to stop).
 */
export function useWorkbenchEvent<F extends EventFamily<WorkbenchContract>, E extends EventName<WorkbenchContract, F>>(
  family: F,
  event: E,
  callback: (payload: WorkbenchEventPayload<F, E>) => void,
): () => void {
  const api = useWorkbench() as unknown as Record<string, Record<string, (cb: (payload: unknown) => void) => () => void>>;
  let off: (() => void) | null = api[family][eventMethodName(event)]((payload) => callback(payload as WorkbenchEventPayload<F, E>));
  const stop = () => {
    off?.();
    off = null;
  };
  if (getCurrentScope()) onScopeDispose(stop);
  return stop;
}
