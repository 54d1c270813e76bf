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

/**
 * A two-way session: validated input opens it, then the renderer keeps sending messages (each
 * validated with `message`) while main pushes chunks, until main returns one result (or an error).
 * The caller can close its side (the handler's message iterator ends) or cancel (signal aborted).
 */
export interface SessionOp<I extends z.ZodType = z.ZodType, M extends z.ZodType = z.ZodType, C = unknown, R = unknown> {
  readonly kind: 'session';
  readonly input: I;
  readonly message: M;
  /**
   * Re-opened instead of failed when browser mode's socket drops: the page's transport starts it
   * again, same id and input, once it reconnects (a live attachment: main answers a fresh snapshot).
   */
  readonly reattach?: boolean;
  readonly __chunk?: C;
  readonly __result?: R;
}

/** An event main pushes to every window; exposed to the renderer as `onName(cb) => unsubscribe`. */
export interface EventDef<P = unknown> {
  readonly kind: 'event';
  /** Keyed events (`keyedEvent`) only. */
  readonly keyed?: boolean;
  readonly __payload?: P;
}

/**
 * An event with an argument: main emits it under a key (a live session's id) and only windows
 * subscribed to that key receive it (one session's levels or partial transcripts, not every
 * window's). Exposed as `onName(key, cb) => unsubscribe`; the subscription travels to main
 * (`ops.subscribe`), so nothing for other keys crosses the bridge.
 */
export interface KeyedEventDef<P = unknown> extends EventDef<P> {
  readonly keyed: true;
}

export type AnyOp =
  | CallOp<z.ZodType, unknown>
  | StreamOp<z.ZodType, unknown, unknown>
  | SessionOp<z.ZodType, z.ZodType, unknown, unknown>
  | EventDef<unknown>;
export type Family = Record<string, AnyOp>;
export type Contract = Record<string, Family>;

export function call<O>() {
  return <I extends z.ZodType>(input: I): CallOp<I, O> => ({ kind: 'call', input });
}

export function stream<C, R>() {
  return <I extends z.ZodType>(input: I): StreamOp<I, C, R> => ({ kind: 'stream', input });
}

/**
 * `session<Chunk, Result>()(inputSchema, messageSchema)`: the renderer sends `z.input<message>`.
 * `{ reattach: true }`: see SessionOp.reattach.
 */
export function session<C, R>() {
  return <I extends z.ZodType, M extends z.ZodType>(input: I, message: M, options?: { reattach?: boolean }): SessionOp<I, M, C, R> => ({
    kind: 'session',
    input,
    message,
    ...(options?.reattach ? { reattach: true } : {}),
  });
}

export function event<P>(): EventDef<P> {
  return { kind: 'event' };
}

export function keyedEvent<P>(): KeyedEventDef<P> {
  return { kind: 'event', keyed: true };
}

export type OutputOf<Op> = Op extends CallOp<z.ZodType, infer O> ? O : never;
export type ChunkOf<Op> =
  Op extends StreamOp<z.ZodType, infer C, unknown> ? C : Op extends SessionOp<z.ZodType, z.ZodType, infer C, unknown> ? C : never;
export type ResultOf<Op> =
  Op extends StreamOp<z.ZodType, unknown, infer R> ? R : Op extends SessionOp<z.ZodType, z.ZodType, unknown, infer R> ? R : never;
export type PayloadOf<Op> = Op extends EventDef<infer P> ? P : never;

/** Every plain event channel a contract declares, as `family.event` (e.g. `'connections.changed'`). */
export type EventChannel<C extends Contract> = {
  [F in keyof C & string]: {
    [M in keyof C[F] & string]: C[F][M] extends KeyedEventDef<unknown> ? never : C[F][M] extends EventDef<unknown> ? `${F}.${M}` : never;
  }[keyof C[F] & string];
}[keyof C & string];

/** Every keyed event channel a contract declares (`keyedEvent`). */
export type KeyedEventChannel<C extends Contract> = {
  [F in keyof C & string]: { [M in keyof C[F] & string]: C[F][M] extends KeyedEventDef<unknown> ? `${F}.${M}` : never }[keyof C[F] &
    string];
}[keyof C & string];

/** The payload type of an event channel of `C`. */
export type EventPayload<C extends Contract, K extends string> = K extends `${infer F}.${infer M}`
  ? F extends keyof C
    ? M extends keyof C[F]
      ? PayloadOf<C[F][M]>
      : never
    : never
  : never;

/** The families of `C` that declare at least one event. */
export type EventFamily<C extends Contract> = {
  [F in keyof C & string]: EventName<C, F> extends never ? never : F;
}[keyof C & string];

/** The plain event names (`changed`) a family `F` of `C` declares. */
export type EventName<C extends Contract, F extends keyof C> = {
  [M in keyof C[F] & string]: C[F][M] extends KeyedEventDef<unknown> ? never : C[F][M] extends EventDef<unknown> ? M : never;
}[keyof C[F] & string];

/** Every keyed event channel of `contract`, at run time (main checks subscriptions against it). */
export function keyedEventChannels(contract: Contract): Set<string> {
  const out = new Set<string>();
  for (const [family, ops] of Object.entries(contract)) {
    for (const [name, op] of Object.entries(ops)) if (op.kind === 'event' && op.keyed === true) out.add(channelName(family, name));
  }
  return out;
}

/** `send` -> `onSend`: the renderer-side name of an event. */
export type EventMethodName<K extends string> = `on${Capitalize<K>}`;

export function eventMethodName(name: string): string {
  return `on${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

/** Channel name of an operation or event: `family.method`. */
export function channelName(family: string, method: string): string {
  return `${family}.${method}`;
}
