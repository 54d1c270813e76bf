/**
 * The Electron side of BridgeTransport: `invoke` per contract channel (a cancellable call adds its
 * op id), and one listener each for stream/session chunks and ends (sent by main/electron/ipc.ts
 * in order on the same channel family, so an end never overtakes its chunks). Uint8Arrays cross
 * by structured clone. Callbacks never see the IpcRendererEvent.
 */
import type { BridgeTransport } from '../shared/contract/bridge';
import { chunkCost } from '../shared/contract/chunk-cost';
import { KeyedListeners } from '../shared/contract/keyed-listeners';
import { IPC_STREAM_ACK, IPC_STREAM_CHUNK, IPC_STREAM_END, type CallReply } from '../shared/contract/protocol';

/** The part of `ipcRenderer` used here. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  send(channel: string, ...args: unknown[]): void;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

function refused(err: unknown): CallReply {
  const message = err instanceof Error ? err.message : String(err);
  // Electron's own rejection for a channel main does not serve (a renderer newer than main).
  if (message.includes('No handler registered')) {
    return { ok: false, error: { code: 'unknown_method', message: 'The workbench process does not offer this operation.' } };
  }
  return { ok: false, error: { code: 'internal', message: `The workbench process refused the request: ${message}` } };
}

function asReply(value: unknown): CallReply {
  if (typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean') return value as CallReply;
  return { ok: false, error: { code: 'protocol', message: 'The workbench process sent a malformed reply.' } };
}

export function createIpcTransport(ipc: IpcRendererLike): BridgeTransport {
  const streams = new Map<string, { onChunk(chunk: unknown): void; resolve(reply: CallReply): void }>();
  const keyed = new KeyedListeners();
  /** One IPC listener per keyed channel, dispatching on the key main sends as the second argument. */
  const keyedChannels = new Map<string, (event: unknown, payload: unknown, key: unknown) => void>();
  const tellMain = (op: 'ops.subscribe' | 'ops.unsubscribe', channel: string, key: string) =>
    void ipc.invoke(op, { channel, key }).catch(() => {});

  // Acknowledgements, batched per task: main stops a stream's sender when the page falls a window
  // behind (main/electron/stream-credits.ts), so a page whose code stops running stops the flood.
  const acks = new Map<string, { chunks: number; bytes: number }>();
  let ackTimer: ReturnType<typeof setTimeout> | null = null;
  const flushAcks = () => {
    ackTimer = null;
    for (const [streamId, a] of acks) ipc.send(IPC_STREAM_ACK, streamId, a.chunks, a.bytes);
    acks.clear();
  };
  ipc.on(IPC_STREAM_CHUNK, (_event, streamId, chunk) => {
    if (typeof streamId !== 'string') return;
    try {
      streams.get(streamId)?.onChunk(chunk);
    } finally {
      const a = acks.get(streamId) ?? { chunks: 0, bytes: 0 };
      a.chunks += 1;
      a.bytes += chunkCost(chunk);
      acks.set(streamId, a);
      ackTimer ??= setTimeout(flushAcks, 0);
    }
  });
  ipc.on(IPC_STREAM_END, (_event, streamId, reply) => {
    if (typeof streamId !== 'string') return;
    const entry = streams.get(streamId);
    if (!entry) return;
    streams.delete(streamId);
    entry.resolve(asReply(reply));
  });

  return {
    async call(channel, input, opId) {
      try {
        return asReply(await (opId === undefined ? ipc.invoke(channel, input) : ipc.invoke(channel, input, opId)));
      } catch (err) {
        return refused(err);
      }
    },
    stream(channel, input, streamId, onChunk) {
      return new Promise<CallReply>((resolve) => {
        streams.set(streamId, { onChunk, resolve });
        // The invoke only acknowledges the start; the end arrives on IPC_STREAM_END.
        ipc.invoke(channel, input, streamId).then(
          (ack) => {
            const reply = asReply(ack);
            if (!reply.ok && streams.get(streamId)?.resolve === resolve) {
              streams.delete(streamId);
              resolve(reply);
            }
          },
          (err: unknown) => {
            if (streams.get(streamId)?.resolve !== resolve) return;
            streams.delete(streamId);
            resolve(refused(err));
          },
        );
      });
    },
    subscribe(channel, callback) {
      const listener = (_event: unknown, payload: unknown) => callback(payload);
      ipc.on(channel, listener);
      return () => void ipc.removeListener(channel, listener);
    },
    subscribeKeyed(channel, key, callback) {
      if (!keyedChannels.has(channel)) {
        const listener = (_event: unknown, payload: unknown, eventKey: unknown) => {
          if (typeof eventKey === 'string') keyed.dispatch(channel, eventKey, payload);
        };
        keyedChannels.set(channel, listener);
        ipc.on(channel, listener as (event: unknown, ...args: unknown[]) => void);
      }
      const entry = keyed.add(channel, key, callback);
      if (entry.first) tellMain('ops.subscribe', channel, key);
      return () => {
        if (!entry.remove()) return;
        tellMain('ops.unsubscribe', channel, key);
        const listener = keyedChannels.get(channel);
        if (listener && !keyed.hasChannel(channel)) {
          keyedChannels.delete(channel);
          ipc.removeListener(channel, listener as (event: unknown, ...args: unknown[]) => void);
        }
      };
    },
  };
}
