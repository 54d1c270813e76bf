/**
 * Builds the contract's API over any transport, in two layers. `createReplyApi` is the transport
 * side: every promise resolves to a Reply (`{ok, value}` or `{ok: false, error}`), so it can cross
 * Electron's contextBridge, which copies a thrown Error as its message alone; the preload exposes
 * it as `window.workbench`. `fromReplyApi` (page-api.ts) is the page side: values, rejections with
 * WorkbenchFailure, `{ signal }`. Browser mode runs both in the page (`createWorkbenchApi`), so the
 * two shells share every line and can't drift. Calls, streams and sessions get caller-made ids so
 * `ops.cancel` can name them; a session's `send`s keep at most SESSION_SEND_WINDOW messages in
 * flight, in order.
 */
import { channelName, eventMethodName, type Contract } from './define';
import { SESSION_SEND_WINDOW, type CallReply } from './protocol';
import type { ApiFor, ReplyApiFor, ReplySessionHandle, WireCallOptions, WorkbenchApi, WorkbenchReplyApi } from './api';
import { contract } from './index';
import { newOpId } from './op-id';
import { fromReplyApi } from './page-api';

export interface BridgeTransport {
  /** Runs a call; `opId` (optional) is the id `ops.cancel` can name while it runs. */
  call(channel: string, input: unknown, opId?: string): Promise<CallReply>;
  /**
   * Starts a stream or a session; chunks go to onChunk; resolves with the end reply. `reattach`:
   * a transport whose connection can drop (browser mode) starts it again on reconnect instead of
   * failing it (SessionOp.reattach).
   */
  stream(channel: string, input: unknown, streamId: string, onChunk: (chunk: unknown) => void, options?: { reattach?: boolean }): Promise<CallReply>;
  subscribe(channel: string, callback: (payload: unknown) => void): () => void;
  /**
   * Listens to keyed event `channel` for `key`; main is asked for it (`ops.subscribe`) with the
   * first listener of that key and told when the last one goes. A transport whose connection can
   * drop subscribes again on its new connection.
   */
  subscribeKeyed(channel: string, key: string, callback: (payload: unknown) => void): () => void;
}

const CANCEL = channelName('ops', 'cancel');
const SEND = channelName('ops', 'send');
const CLOSE = channelName('ops', 'close');

/** Strict FIFO of at most `size` holders: a freed slot goes to the longest waiter, never a newcomer. */
function sendWindow(size: number) {
  let inFlight = 0;
  const waiting: Array<() => void> = [];
  return {
    acquire(): Promise<void> {
      if (inFlight < size && waiting.length === 0) {
        inFlight++;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    release(): void {
      const next = waiting.shift();
      if (next) next();
      else inFlight--;
    },
  };
}

function openSession(
  transport: BridgeTransport,
  channel: string,
  input: unknown,
  onChunk: (chunk: unknown) => void,
  reattach: boolean,
): ReplySessionHandle<unknown, unknown> {
  const id = newOpId();
  const result = transport.stream(channel, input, id, onChunk, reattach ? { reattach } : undefined);
  const slots = sendWindow(SESSION_SEND_WINDOW);
  // send and close share one queue, so a close never overtakes the messages sent before it.
  const inOrder = async (op: string, body: unknown): Promise<CallReply> => {
    await slots.acquire();
    try {
      return await transport.call(op, body);
    } finally {
      slots.release();
    }
  };
  return {
    id,
    result,
    send: (message) => inOrder(SEND, { id, message }),
    close: () => inOrder(CLOSE, { id }),
    cancel: () => transport.call(CANCEL, { id }),
  };
}

/** The reply API of the app's contract (the preload's `window.workbench`); pass `declared` for another contract (tests). */
export function createReplyApi(transport: BridgeTransport): WorkbenchReplyApi;
export function createReplyApi<C extends Contract>(transport: BridgeTransport, declared: C): ReplyApiFor<C>;
export function createReplyApi(transport: BridgeTransport, declared: Contract = contract): unknown {
  const api: Record<string, Record<string, unknown>> = {};
  for (const [family, ops] of Object.entries(declared)) {
    const target: Record<string, unknown> = {};
    for (const [method, op] of Object.entries(ops)) {
      const channel = channelName(family, method);
      if (op.kind === 'call') {
        // Only a string crosses as the op id; anything else the page passes is ignored.
        target[method] = (input?: unknown, options?: WireCallOptions) =>
          transport.call(channel, input, typeof options?.opId === 'string' ? options.opId : undefined);
      } else if (op.kind === 'stream') {
        target[method] = (input: unknown, onChunk: (chunk: unknown) => void) => {
          const streamId = newOpId();
          return {
            streamId,
            result: transport.stream(channel, input, streamId, onChunk),
            cancel: () => transport.call(CANCEL, { id: streamId }),
          };
        };
      } else if (op.kind === 'session') {
        target[method] = (input: unknown, onChunk: (chunk: unknown) => void) => openSession(transport, channel, input, onChunk, op.reattach === true);
      } else if (op.keyed === true) {
        target[eventMethodName(method)] = (key: string, callback: (payload: unknown) => void) =>
          transport.subscribeKeyed(channel, String(key), callback);
      } else {
        target[eventMethodName(method)] = (callback: (payload: unknown) => void) => transport.subscribe(channel, callback);
      }
    }
    api[family] = Object.freeze(target);
  }
  return Object.freeze(api);
}

/** The page's API of the app's contract over `transport` (browser mode); pass `declared` for another contract (tests). */
export function createWorkbenchApi(transport: BridgeTransport): WorkbenchApi;
export function createWorkbenchApi<C extends Contract>(transport: BridgeTransport, declared: C): ApiFor<C>;
export function createWorkbenchApi(transport: BridgeTransport, declared: Contract = contract): unknown {
  return fromReplyApi(createReplyApi(transport, declared), declared);
}
