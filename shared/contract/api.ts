/**
 * The renderer-side shape of the contract (`window.workbench`), derived from the declarations.
 */
import type { z } from 'zod';
import type { CallOp, EventDef, EventMethodName, Family, StreamOp } from './define';
import type { WorkbenchContract } from './index';

/** A running stream: its result (rejects with WorkbenchFailure) and a way to stop it. */
export interface StreamHandle<R> {
  readonly streamId: string;
  readonly result: Promise<R>;
  cancel(): Promise<void>;
}

type InputArgs<I extends z.ZodType> = undefined extends z.input<I> ? [input?: z.input<I>] : [input: z.input<I>];

export type FamilyApi<F extends Family> = {
  [K in keyof F & string as F[K] extends EventDef<unknown> ? EventMethodName<K> : K]: F[K] extends CallOp<
    infer I,
    infer O
  >
    ? (...args: InputArgs<I>) => Promise<O>
    : F[K] extends StreamOp<infer I, infer C, infer R>
      ? (input: z.input<I>, onChunk: (chunk: C) => void) => StreamHandle<R>
      : F[K] extends EventDef<infer P>
        ? (callback: (payload: P) => void) => () => void
        : never;
};

export type WorkbenchApi = { [F in keyof WorkbenchContract]: FamilyApi<WorkbenchContract[F]> };
