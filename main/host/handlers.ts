/**
 * Handler types derived from the contract: main must implement every call, stream and session
 * operation, so a missing or mistyped handler is a compile error (HandlersFor<Contract>). Events
 * are emitted through TypedEmit, which only takes a declared event and its payload type.
 */
import type { z } from 'zod';
import type {
  CallOp,
  Contract,
  EventDef,
  Family,
  SessionOp,
  StreamOp,
} from '../../shared/contract/define';

export interface CallContext {
  /** The window or browser tab that asked (for logging and ownership of streams and sessions). */
  readonly sessionId: string;
  /** Aborted when the caller cancels or its window/tab goes away. */
  readonly signal: AbortSignal;
}

export interface StreamContext<C> extends CallContext {
  readonly streamId: string;
  emit(chunk: C): void;
}

/**
 * What a session handler gets. `messages` yields each inbound message (already validated with the
 * op's message schema) and ends when the caller closes its side, cancels, or goes away. `emit`
 * resolves once the transport can take more (await it to follow the socket's back-pressure).
 */
export interface SessionContext<In, C> extends CallContext {
  /** The session's own id (the caller-made id its handle carries); `sessionId` is the window/tab. */
  readonly opId: string;
  readonly messages: AsyncIterable<In>;
  emit(chunk: C): Promise<void>;
  /**
   * Chunks emitted while the transport was above its high-water mark and not yet drained (0 when
   * the page keeps up; never above 0 over Electron IPC). For a sender that must not wait (a live
   * session) to tell a window that stopped reading from a burst.
   */
  backlog(): number;
  /**
   * From now on, inbound messages are also checked with `schema` before `ops.send` answers, so a
   * page's `send()` rejects with invalid_input for a message only the handler knows how to judge
   * (a live session's control messages, whose schema depends on the session's kind).
   */
  validateMessagesWith(schema: z.ZodType): void;
}

type OpHandler<Op> =
  Op extends CallOp<infer I, infer O>
    ? (input: z.output<I>, ctx: CallContext) => Promise<O> | O
    : Op extends StreamOp<infer I, infer C, infer R>
      ? (input: z.output<I>, ctx: StreamContext<C>) => Promise<R>
      : Op extends SessionOp<infer I, infer M, infer C, infer R>
        ? (input: z.output<I>, ctx: SessionContext<z.output<M>, C>) => Promise<R>
        : never;

export type FamilyHandlers<F extends Family> = {
  [K in keyof F as F[K] extends EventDef<unknown> ? never : K]: OpHandler<F[K]>;
};

/** Families the host answers itself (cancel, a session's send and close). */
export type HostFamily = 'streams' | 'ops';

/** Every family except the host's own. */
export type HandlersFor<C extends Contract> = {
  [F in Exclude<keyof C, HostFamily>]: FamilyHandlers<C[F]>;
};

/** Re-exported for the host's callers; services import it from shared/contract/typed-emit. */
export type { TypedEmit, TypedKeyedEmit } from '../../shared/contract/typed-emit';
