/**
 * The type of main's event push, shared so services (which emit) need not import main/host
 * (which implements it): the layers only point down (DESIGN.md).
 */
import type { Contract, EventChannel, EventPayload, KeyedEventChannel } from './define';
import type { WorkbenchContract } from './index';

/**
 * Pushes an event to every attached window: `emit('connections.changed', state)`. Only channels
 * the contract declares as events, with their payload type, compile.
 */
export type TypedEmit<C extends Contract = WorkbenchContract> = <K extends EventChannel<C>>(
  channel: K,
  payload: EventPayload<C, K>,
) => void;

/**
 * Pushes a keyed event to the windows subscribed to `key` only: `emitKeyed('live.level', id, level)`.
 */
export type TypedKeyedEmit<C extends Contract = WorkbenchContract> = <K extends KeyedEventChannel<C>>(
  channel: K,
  key: string,
  payload: EventPayload<C, K>,
) => void;
