/**
 * Builds `window.workbench` from the contract over any transport. The preload (Electron IPC) and
 * the renderer's WebSocket bridge (browser mode) both call this, so the two can't drift. Calls,
 * streams and sessions get caller-made ids so `ops.cancel` can name them; a session's `send`s
 * keep at most SESSION_SEND_WINDOW messages in flight, in order.
 */
import { channelName, eventMethodName, type Contract } from './define';
import { WorkbenchFailure } from './errors';
import { SESSION_SEND_WINDOW, type CallReply } from './protocol';
import type { AbortSignalLike, ApiFor, SessionHandle, WorkbenchApi } from './api';
import { contract } from './index';

export interface BridgeTransport {
  /** Runs a call; `opId` (optional) is the id `ops.cancel` can name while it runs. */
  call(channel: string, input: unknown, opId?: string): Promise<CallReply>;
  /** Starts a stream or a session; chunks go to onChunk; resolves with the end reply. */
  stream(channel: string, input: unknown, streamId: string, onChunk: (chunk: unknown) => void): Promise<CallReply>;
  subscribe(channel: string, callback: (payload: unknown) => void): () => void;
}

const CANCEL = channelName('ops', 'cancel');
const SEND = channelName('ops', 'send');
const CLOSE = channelName('ops', 'close');

function unwrap(reply: CallReply): unknown {
  if (reply.ok) return reply.value;
  throw new WorkbenchFailure(reply.error);
}

/** 128 random bits, URL-safe: an operation id no other caller can guess or collide with. */
export function newOpId(): string {
  const bytes = new Uint8Array(16);
  // Web Crypto exists in every runtime we ship to (renderer, preload, Node 20); shared/ has no DOM types.
  (globalThis as unknown as { crypto: { getRandomValues(array: Uint8Array): Uint8Array } }).crypto.getRandomValues(bytes);
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

function cancelled(channel: string): WorkbenchFailure {
  return new WorkbenchFailure({ code: 'cancelled', message: `${channel} was cancelled.` });
}

/**
 * Runs `start(opId)` so that aborting `signal` rejects at once with `cancelled` and calls
 * `cancel(opId)` (which tells main to abort). Shared by this bridge and the renderer's Electron
 * wrapper (an AbortSignal cannot cross Electron's contextBridge, so there the signal stays in the
 * page and only the op id crosses).
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

/** The options a call method accepts at run time: the public CallOptions, or an op id made by a wrapper. */
interface WireCallOptions {
  signal?: AbortSignalLike;
  opId?: string;
}

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
): SessionHandle<unknown, unknown> {
  const id = newOpId();
  const result = transport.stream(channel, input, id, onChunk).then(unwrap);
  const slots = sendWindow(SESSION_SEND_WINDOW);
  // send and close share one queue, so a close never overtakes the messages sent before it.
  const inOrder = async (op: string, body: unknown): Promise<void> => {
    await slots.acquire();
    try {
      unwrap(await transport.call(op, body));
    } finally {
      slots.release();
    }
  };
  return {
    id,
    result,
    send: (message) => inOrder(SEND, { id, message }),
    close: () => inOrder(CLOSE, { id }),
    cancel: async () => {
      unwrap(await transport.call(CANCEL, { id }));
    },
  };
}

/** The API of the app's contract; pass `declared` to build one for another contract (tests). */
export function createWorkbenchApi(transport: BridgeTransport): WorkbenchApi;
export function createWorkbenchApi<C extends Contract>(transport: BridgeTransport, declared: C): ApiFor<C>;
export function createWorkbenchApi(transport: BridgeTransport, declared: Contract = contract): unknown {
  const api: Record<string, Record<string, unknown>> = {};
  for (const [family, ops] of Object.entries(declared)) {
    const target: Record<string, unknown> = {};
    for (const [method, op] of Object.entries(ops)) {
      const channel = channelName(family, method);
      if (op.kind === 'call') {
        const run = async (input: unknown, opId?: string) => unwrap(await transport.call(channel, input, opId));
        target[method] = (input?: unknown, options?: WireCallOptions) => {
          if (options?.signal) {
            return abortableCall(channel, options.signal, (opId) => run(input, opId), (id) => transport.call(CANCEL, { id }));
          }
          return run(input, typeof options?.opId === 'string' ? options.opId : undefined);
        };
      } else if (op.kind === 'stream') {
        target[method] = (input: unknown, onChunk: (chunk: unknown) => void) => {
          const streamId = newOpId();
          const result = transport.stream(channel, input, streamId, onChunk).then(unwrap);
          return {
            streamId,
            result,
            cancel: async () => {
              unwrap(await transport.call(CANCEL, { id: streamId }));
            },
          };
        };
      } else if (op.kind === 'session') {
        target[method] = (input: unknown, onChunk: (chunk: unknown) => void) => openSession(transport, channel, input, onChunk);
      } else {
        target[eventMethodName(method)] = (callback: (payload: unknown) => void) => transport.subscribe(channel, callback);
      }
    }
    api[family] = target;
  }
  return Object.freeze(api);
}
