/**
 * The page's side of the bridge: turns a reply API (bridge.ts `createReplyApi`; in Electron the
 * preload's `window.workbench`, across contextBridge) into the WorkbenchApi the renderer uses.
 * Replies become values, or rejections with a WorkbenchFailure built here, in the page's world,
 * with the whole error (code, status, request id, issues): contextBridge would have kept only
 * an Error's message. A call's `{ signal }` is handled here too, since an AbortSignal cannot
 * cross contextBridge: only a string op id crosses, and an abort rejects at once and asks
 * `ops.cancel` to stop the call in main.
 */
import { channelName, eventMethodName, type Contract } from './define';
import { WorkbenchFailure } from './errors';
import type { CallReply } from './protocol';
import type {
  AbortSignalLike,
  ApiFor,
  ReplyApiFor,
  ReplySessionHandle,
  ReplyStreamHandle,
  WireCallOptions,
  WorkbenchApi,
  WorkbenchReplyApi,
} from './api';
import { contract } from './index';
import { newOpId } from './op-id';

/** A reply's value, or its error thrown as a WorkbenchFailure. */
export function unwrap(reply: CallReply): unknown {
  if (typeof reply !== 'object' || reply === null || typeof reply.ok !== 'boolean') {
    throw new WorkbenchFailure({ code: 'protocol', message: 'The workbench bridge sent a malformed reply.' });
  }
  if (reply.ok) return reply.value;
  throw new WorkbenchFailure(reply.error);
}

/** For handle methods whose answer the page does not see (send, close, cancel). */
function settle(reply: CallReply): void {
  unwrap(reply);
}

function cancelled(channel: string): WorkbenchFailure {
  return new WorkbenchFailure({ code: 'cancelled', message: `${channel} was cancelled.` });
}

/**
 * Runs `start(opId)` so that aborting `signal` rejects at once with `cancelled` and calls
 * `cancel(opId)` (which tells main to abort; its answer and failure are ignored).
 */
export function abortableCall<T>(
  channel: string,
  signal: AbortSignalLike,
  start: (opId: string) => Promise<T>,
  cancel: (opId: string) => unknown,
): Promise<T> {
  if (signal.aborted) return Promise.reject(cancelled(channel));
  const id = newOpId();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      reject(cancelled(channel));
      void Promise.resolve()
        .then(() => cancel(id))
        .catch(() => {});
    };
    signal.addEventListener('abort', onAbort, { once: true });
    start(id).then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

type ReplyCall = (input?: unknown, options?: WireCallOptions) => Promise<CallReply>;
type ReplyOpen<H> = (input: unknown, onChunk: (chunk: unknown) => void) => H;

/** The page's API over a reply API of the app's contract; pass `declared` for another contract (tests). */
export function fromReplyApi(api: WorkbenchReplyApi): WorkbenchApi;
export function fromReplyApi<C extends Contract>(api: ReplyApiFor<C>, declared: C): ApiFor<C>;
export function fromReplyApi(api: unknown, declared: Contract = contract): unknown {
  const source = api as Record<string, Record<string, unknown>>;
  const cancelOp = source.ops.cancel as ReplyCall;
  const out: Record<string, Record<string, unknown>> = {};
  for (const [family, ops] of Object.entries(declared)) {
    const target: Record<string, unknown> = {};
    for (const [method, op] of Object.entries(ops)) {
      if (op.kind === 'call') {
        const call = source[family][method] as ReplyCall;
        const channel = channelName(family, method);
        target[method] = (input?: unknown, options?: { signal?: AbortSignalLike }) =>
          options?.signal
            ? abortableCall(channel, options.signal, (opId) => call(input, { opId }).then(unwrap), (id) => cancelOp({ id }))
            : call(input).then(unwrap);
      } else if (op.kind === 'stream') {
        const open = source[family][method] as ReplyOpen<ReplyStreamHandle<unknown>>;
        target[method] = (input: unknown, onChunk: (chunk: unknown) => void) => {
          const handle = open(input, onChunk);
          return {
            streamId: handle.streamId,
            result: handle.result.then(unwrap),
            cancel: () => handle.cancel().then(settle),
          };
        };
      } else if (op.kind === 'session') {
        const open = source[family][method] as ReplyOpen<ReplySessionHandle<unknown, unknown>>;
        target[method] = (input: unknown, onChunk: (chunk: unknown) => void) => {
          const handle = open(input, onChunk);
          return {
            id: handle.id,
            result: handle.result.then(unwrap),
            send: (message: unknown) => handle.send(message).then(settle),
            close: () => handle.close().then(settle),
            cancel: () => handle.cancel().then(settle),
          };
        };
      } else {
        // Events carry payloads, never errors: the subscription passes through.
        target[eventMethodName(method)] = source[family][eventMethodName(method)];
      }
    }
    out[family] = Object.freeze(target);
  }
  return Object.freeze(out);
}
