/**
 * Builds `window.workbench` from the contract over any transport. The preload (Electron IPC) and
 * the renderer's WebSocket bridge (browser mode) both call this, so the two can't drift.
 */
import { channelName, eventMethodName, type Contract } from './define';
import { WorkbenchFailure } from './errors';
import type { CallReply } from './protocol';
import type { WorkbenchApi } from './api';
import { contract } from './index';

export interface BridgeTransport {
  call(channel: string, input: unknown): Promise<CallReply>;
  /** Starts a stream; chunks go to onChunk; resolves with the end reply. */
  stream(channel: string, input: unknown, streamId: string, onChunk: (chunk: unknown) => void): Promise<CallReply>;
  subscribe(channel: string, callback: (payload: unknown) => void): () => void;
}

function unwrap(reply: CallReply): unknown {
  if (reply.ok) return reply.value;
  throw new WorkbenchFailure(reply.error);
}

/** 128 random bits, URL-safe: a stream id no other caller can guess or collide with. */
export function newStreamId(): string {
  const bytes = new Uint8Array(16);
  // Web Crypto exists in every runtime we ship to (renderer, preload, Node 20); shared/ has no DOM types.
  (globalThis as unknown as { crypto: { getRandomValues(array: Uint8Array): Uint8Array } }).crypto.getRandomValues(bytes);
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

export function createWorkbenchApi(transport: BridgeTransport, declared: Contract = contract): WorkbenchApi {
  const api: Record<string, Record<string, unknown>> = {};
  for (const [family, ops] of Object.entries(declared)) {
    const target: Record<string, unknown> = {};
    for (const [method, op] of Object.entries(ops)) {
      const channel = channelName(family, method);
      if (op.kind === 'call') {
        target[method] = async (input?: unknown) => unwrap(await transport.call(channel, input));
      } else if (op.kind === 'stream') {
        target[method] = (input: unknown, onChunk: (chunk: unknown) => void) => {
          const streamId = newStreamId();
          const result = transport.stream(channel, input, streamId, onChunk).then(unwrap);
          return {
            streamId,
            result,
            cancel: async () => {
              unwrap(await transport.call(channelName('streams', 'cancel'), { streamId }));
            },
          };
        };
      } else {
        target[eventMethodName(method)] = (callback: (payload: unknown) => void) =>
          transport.subscribe(channel, callback);
      }
    }
    api[family] = target;
  }
  return Object.freeze(api) as unknown as WorkbenchApi;
}
