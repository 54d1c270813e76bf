/**
 * The renderer-side shape of the contract (`window.workbench`), derived from the declarations.
 */
import type { z } from 'zod';
import type { CallOp, Contract, EventDef, EventMethodName, Family, SessionOp, StreamOp } from './define';
import type { WorkbenchContract } from './index';

/**
 * The part of a DOM AbortSignal the bridge uses (shared/ has no DOM types; a real AbortSignal
 * fits).
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** The optional last argument of every call: aborting `signal` cancels the call in main. */
export interface CallOptions {
  signal?: AbortSignalLike;
}

/** A running stream: its result (rejects with WorkbenchFailure) and a way to stop it. */
export interface StreamHandle<R> {
  readonly streamId: string;
  readonly result: Promise<R>;
  cancel(): Promise<void>;
}

/**
 * A running two-way session. `result` settles when main's handler returns (or fails, or the
 * session is cancelled). `send` resolves once main has accepted the message (it waits while the
 * socket or the session is full, and rejects with `invalid_input` for a message the schema
 * refuses: the session stays open). `close` ends the inbound side normally; `cancel` aborts.
 */
export interface SessionHandle<In, R> {
  readonly id: string;
  readonly result: Promise<R>;
  send(message: In): Promise<void>;
  close(): Promise<void>;
  cancel(): Promise<void>;
}

type InputArgs<I extends z.ZodType> = undefined extends z.input<I>
  ? [input?: z.input<I>, options?: CallOptions]
  : [input: z.input<I>, options?: CallOptions];

export type FamilyApi<F extends Family> = {
  [K in keyof F & string as F[K] extends EventDef<unknown> ? EventMethodName<K> : K]: F[K] extends CallOp<
    infer I,
    infer O
  >
    ? (...args: InputArgs<I>) => Promise<O>
    : F[K] extends StreamOp<infer I, infer C, infer R>
      ? (input: z.input<I>, onChunk: (chunk: C) => void) => StreamHandle<R>
      : F[K] extends SessionOp<infer I, infer M, infer C, infer R>
        ? (input: z.input<I>, onChunk: (chunk: C) => void) => SessionHandle<z.input<M>, R>
        : F[K] extends EventDef<infer P>
          ? (callback: (payload: P) => void) => () => void
          : never;
};

/** The API of any contract (tests build one for their own test-only families). */
export type ApiFor<C extends Contract> = { [F in keyof C]: FamilyApi<C[F]> };

export type WorkbenchApi = ApiFor<WorkbenchContract>;
