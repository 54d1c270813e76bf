/**
 * Electron's `window.workbench` lives in the preload's isolated world, and contextBridge copies
 * objects without their prototype: an AbortSignal handed to it arrives as a dead plain object.
 * This wraps each call of the preload's api so the signal stays in the page: the call crosses with
 * a string op id, and an abort rejects here at once and calls `ops.cancel` with that id.
 */
import { abortableCall } from '../../../shared/contract/bridge';
import { channelName, type Contract } from '../../../shared/contract/define';
import type { AbortSignalLike, ApiFor, WorkbenchApi } from '../../../shared/contract/api';
import { contract } from '../../../shared/contract/index';

type AnyCall = (input?: unknown, options?: { opId?: string }) => Promise<unknown>;

/** The preload's api with `{ signal }` handled in this world; everything else passes through. */
export function withAbortSignals(api: WorkbenchApi): WorkbenchApi;
export function withAbortSignals<C extends Contract>(api: ApiFor<C>, declared: C): ApiFor<C>;
export function withAbortSignals(api: unknown, declared: Contract = contract): unknown {
  const source = api as Record<string, Record<string, unknown>>;
  const cancel = source.ops.cancel as (input: { id: string }) => Promise<unknown>;
  const out: Record<string, Record<string, unknown>> = {};
  for (const [family, ops] of Object.entries(declared)) {
    const target: Record<string, unknown> = { ...source[family] };
    for (const [method, op] of Object.entries(ops)) {
      if (op.kind !== 'call') continue;
      const call = source[family][method] as AnyCall;
      const channel = channelName(family, method);
      target[method] = (input?: unknown, options?: { signal?: AbortSignalLike }) =>
        options?.signal
          ? abortableCall(channel, options.signal, (opId) => call(input, { opId }), (id) => cancel({ id }))
          : call(input);
    }
    out[family] = Object.freeze(target);
  }
  return Object.freeze(out);
}
