/**
 * Handler types derived from the contract: main must implement every call and stream operation,
 * so a missing or mistyped handler is a compile error (HandlersFor<Contract>).
 */
import type { z } from 'zod';
import type { CallOp, Contract, EventDef, Family, StreamOp } from '../../shared/contract/define';

export interface CallContext {
  /** The window or browser tab that asked (for logging and ownership of streams). */
  readonly sessionId: string;
}

export interface StreamContext<C> extends CallContext {
  readonly streamId: string;
  /** Aborted when the caller cancels or its window/tab goes away. */
  readonly signal: AbortSignal;
  emit(chunk: C): void;
}

type OpHandler<Op> =
  Op extends CallOp<infer I, infer O>
    ? (input: z.output<I>, ctx: CallContext) => Promise<O> | O
    : Op extends StreamOp<infer I, infer C, infer R>
      ? (input: z.output<I>, ctx: StreamContext<C>) => Promise<R>
      : never;

export type FamilyHandlers<F extends Family> = {
  [K in keyof F as F[K] extends EventDef<unknown> ? never : K]: OpHandler<F[K]>;
};

/** Every family except `streams` (cancellation is the host's own job). */
export type HandlersFor<C extends Contract> = {
  [F in Exclude<keyof C, 'streams'>]: FamilyHandlers<C[F]>;
};

/** Pushes an event to every attached window: `emit('connections.changed', state)`. */
export type EmitEvent = (channel: string, payload: unknown) => void;
