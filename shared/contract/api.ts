/**
 * The renderer-side shapes of the contract, derived from the declarations: `WorkbenchApi` (what
 * the page uses: promises reject with WorkbenchFailure) and `WorkbenchReplyApi` (what Electron's
 * preload exposes as `window.workbench`: every promise resolves to a Reply, because
 * contextBridge copies a thrown Error as its message alone).
 */
import type { z } from 'zod';
import type { CallOp, Contract, EventDef, EventMethodName, Family, KeyedEventDef, SessionOp, StreamOp } from './define';
import type { WorkbenchContract } from './index';
import type { CallReply, Reply } from './protocol';

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
        : F[K] extends KeyedEventDef<infer P>
          ? (key: string, callback: (payload: P) => void) => () => void
          : F[K] extends EventDef<infer P>
            ? (callback: (payload: P) => void) => () => void
            : never;
};

/** The API of any contract (tests build one for their own test-only families). */
export type ApiFor<C extends Contract> = { [F in keyof C]: FamilyApi<C[F]> };

export type WorkbenchApi = ApiFor<WorkbenchContract>;

/** A call's options on the reply API: the signal stays in the page, only its op id crosses. */
export interface WireCallOptions {
  opId?: string;
}

/** StreamHandle on the reply API. */
export interface ReplyStreamHandle<R> {
  readonly streamId: string;
  readonly result: Promise<Reply<R>>;
  cancel(): Promise<CallReply>;
}

/** SessionHandle on the reply API (send, close and cancel answer ops.send/close/cancel's reply). */
export interface ReplySessionHandle<In, R> {
  readonly id: string;
  readonly result: Promise<Reply<R>>;
  send(message: In): Promise<CallReply>;
  close(): Promise<CallReply>;
  cancel(): Promise<CallReply>;
}

type WireInputArgs<I extends z.ZodType> = undefined extends z.input<I>
  ? [input?: z.input<I>, options?: WireCallOptions]
  : [input: z.input<I>, options?: WireCallOptions];

export type FamilyReplyApi<F extends Family> = {
  [K in keyof F & string as F[K] extends EventDef<unknown> ? EventMethodName<K> : K]: F[K] extends CallOp<
    infer I,
    infer O
  >
    ? (...args: WireInputArgs<I>) => Promise<Reply<O>>
    : F[K] extends StreamOp<infer I, infer C, infer R>
      ? (input: z.input<I>, onChunk: (chunk: C) => void) => ReplyStreamHandle<R>
      : F[K] extends SessionOp<infer I, infer M, infer C, infer R>
        ? (input: z.input<I>, onChunk: (chunk: C) => void) => ReplySessionHandle<z.input<M>, R>
        : F[K] extends KeyedEventDef<infer P>
          ? (key: string, callback: (payload: P) => void) => () => void
          : F[K] extends EventDef<infer P>
            ? (callback: (payload: P) => void) => () => void
            : never;
};

/** The reply API of any contract: the same operations, every failure a resolved `{ok: false}`. */
export type ReplyApiFor<C extends Contract> = { [F in keyof C]: FamilyReplyApi<C[F]> };

export type WorkbenchReplyApi = ReplyApiFor<WorkbenchContract>;
