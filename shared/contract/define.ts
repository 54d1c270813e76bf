/**
 * The building blocks of the typed contract. Each family file declares its operations once with
 * these helpers; the host's handler types, the preload's `window.workbench` and the browser-mode
 * bridge are all derived from those declarations, so nothing is kept by hand per channel.
 */
import type { z } from 'zod';

/** A request/response operation: validated input in, one output back. */
export interface CallOp<I extends z.ZodType = z.ZodType, O = unknown> {
  readonly kind: 'call';
  readonly input: I;
  /** Phantom: carries the output type, never set at run time. */
  readonly __output?: O;
}

/**
 * A streaming operation: validated input in, any number of chunks, then one result (or an error).
 * The caller can cancel; the handler sees an aborted signal.
 */
export interface StreamOp<I extends z.ZodType = z.ZodType, C = unknown, R = unknown> {
  readonly kind: 'stream';
  readonly input: I;
  readonly __chunk?: C;
  readonly __result?: R;
}

/** An event main pushes to every window; exposed to the renderer as `onName(cb) => unsubscribe`. */
export interface EventDef<P = unknown> {
  readonly kind: 'event';
  readonly __payload?: P;
}

export type AnyOp = CallOp<z.ZodType, unknown> | StreamOp<z.ZodType, unknown, unknown> | EventDef<unknown>;
export type Family = Record<string, AnyOp>;
export type Contract = Record<string, Family>;

export function call<O>() {
  return <I extends z.ZodType>(input: I): CallOp<I, O> => ({ kind: 'call', input });
}

export function stream<C, R>() {
  return <I extends z.ZodType>(input: I): StreamOp<I, C, R> => ({ kind: 'stream', input });
}

export function event<P>(): EventDef<P> {
  return { kind: 'event' };
}

export type OutputOf<Op> = Op extends CallOp<z.ZodType, infer O> ? O : never;
export type ChunkOf<Op> = Op extends StreamOp<z.ZodType, infer C, unknown> ? C : never;
export type ResultOf<Op> = Op extends StreamOp<z.ZodType, unknown, infer R> ? R : never;
export type PayloadOf<Op> = Op extends EventDef<infer P> ? P : never;

/** `send` -> `onSend`: the renderer-side name of an event. */
export type EventMethodName<K extends string> = `on${Capitalize<K>}`;

export function eventMethodName(name: string): string {
  return `on${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

/** Channel name of an operation or event: `family.method`. */
export function channelName(family: string, method: string): string {
  return `${family}.${method}`;
}
