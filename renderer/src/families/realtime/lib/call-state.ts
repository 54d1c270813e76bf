/** A realtime call's state as the console asks about it (pure: the store and the view share it). */
import type { RealtimeCallSnapshot } from '@shared/realtime-call';

/** Whether the call still runs (its socket open, opening or dropped with a reconnect possible). */
export function isActive(state: RealtimeCallSnapshot | null): boolean {
  return state !== null && state.status !== 'ended' && state.status !== 'failed';
}
