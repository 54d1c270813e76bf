/**
 * Browser mode's side of the contract: a BridgeTransport over one WebSocket to the workbench
 * process. Framework-free and DOM-free (the socket is injected) so it runs in Node tests too.
 *
 * Calls made while the socket is (re)connecting wait for it; everything in flight fails with a
 * 'network' WorkbenchError when the socket drops or an attempt fails, and the transport keeps
 * reconnecting with backoff. Event subscriptions survive reconnects (the server broadcasts events
 * to every tab; filtering is local).
 */
import type { BridgeTransport } from '../../../shared/contract/bridge';
import type { CallReply, ClientMessage, ServerMessage } from '../../../shared/contract/protocol';

/** Where the connection stands; 'no-token' means the page was opened without its access token. */
export type BridgeStatus = 'connecting' | 'connected' | 'disconnected' | 'no-token';

/** The part of the WHATWG WebSocket used here (the browser's, or the `ws` package's in tests). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export interface WsTransportOptions {
  /** `ws://<host>/ws` */
  url: string;
  token: string;
  /** Opens a socket offering these subprotocols. */
  connect(url: string, protocols: string[]): SocketLike;
  /** Reconnect delays: first, then doubled up to max. Default 250 ms .. 5 s. */
  backoff?: { initialMs: number; maxMs: number };
}

export interface WsTransport extends BridgeTransport {
  status(): BridgeStatus;
  /** Calls `listener` on every status change; returns an unsubscribe function. */
  onStatus(listener: (status: BridgeStatus) => void): () => void;
  /** Closes the socket for good; everything pending fails. */
  dispose(): void;
}

const OPEN = 1;

interface Pending {
  resolve(reply: CallReply): void;
  /** For streams: where chunks go and which id the stream travels under. */
  stream?: { streamId: string; onChunk(chunk: unknown): void };
}

function networkFailure(message: string): CallReply {
  return { ok: false, error: { code: 'network', message } };
}

export function createWsTransport(options: WsTransportOptions): WsTransport {
  const backoff = options.backoff ?? { initialMs: 250, maxMs: 5000 };
  const protocols = ['workbench', `token.${options.token}`];
  const pending = new Map<number, Pending>();
  const streams = new Map<string, number>();
  const queued: string[] = [];
  const subscribers = new Map<string, Set<(payload: unknown) => void>>();
  const statusListeners = new Set<(status: BridgeStatus) => void>();
  let status: BridgeStatus = 'connecting';
  let socket: SocketLike | null = null;
  let nextId = 1;
  let delay = backoff.initialMs;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let disposed = false;

  function setStatus(next: BridgeStatus): void {
    if (next === status) return;
    status = next;
    for (const listener of [...statusListeners]) listener(next);
  }

  function settle(id: number, reply: CallReply): void {
    const entry = pending.get(id);
    if (!entry) return;
    pending.delete(id);
    if (entry.stream) streams.delete(entry.stream.streamId);
    entry.resolve(reply);
  }

  function failAll(message: string): void {
    queued.length = 0;
    for (const id of [...pending.keys()]) settle(id, networkFailure(message));
  }

  function onMessage(data: unknown): void {
    if (typeof data !== 'string') return;
    let msg: ServerMessage;
    try {
      msg = JSON.parse(data) as ServerMessage;
    } catch {
      return;
    }
    if (msg.t === 'reply') settle(msg.id, msg.reply);
    else if (msg.t === 'end') {
      const id = streams.get(msg.streamId);
      if (id !== undefined) settle(id, msg.reply);
    } else if (msg.t === 'chunk') {
      const id = streams.get(msg.streamId);
      const entry = id === undefined ? undefined : pending.get(id);
      entry?.stream?.onChunk(msg.chunk);
    } else if (msg.t === 'event') {
      for (const callback of [...(subscribers.get(msg.channel) ?? [])]) {
        try {
          callback(msg.payload);
        } catch (err) {
          // One broken listener must not starve the others; surface it like an uncaught error.
          setTimeout(() => {
            throw err;
          });
        }
      }
    }
  }

  function connect(): void {
    timer = null;
    setStatus('connecting');
    let opened = false;
    const ws = options.connect(options.url, protocols);
    socket = ws;
    ws.onopen = () => {
      opened = true;
      delay = backoff.initialMs;
      setStatus('connected');
      for (const text of queued.splice(0)) ws.send(text);
    };
    ws.onmessage = (event) => onMessage(event.data);
    ws.onerror = () => {};
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      failAll(
        opened
          ? 'Disconnected from the workbench process before it answered. Reconnecting; try again in a moment.'
          : 'Cannot reach the workbench process. Is it still running? (Retrying.)',
      );
      if (disposed) return;
      setStatus('disconnected');
      timer = setTimeout(connect, delay);
      delay = Math.min(delay * 2, backoff.maxMs);
    };
  }

  function send(message: ClientMessage, entry: Pending): Promise<CallReply> {
    return new Promise<CallReply>((resolve) => {
      if (disposed) return resolve(networkFailure('The connection to the workbench process was closed.'));
      pending.set(message.id, { ...entry, resolve });
      if (entry.stream) streams.set(entry.stream.streamId, message.id);
      let text: string;
      try {
        text = JSON.stringify(message);
      } catch {
        settle(message.id, { ok: false, error: { code: 'invalid_input', message: 'The input cannot be sent (it is not plain data).' } });
        return;
      }
      if (socket && socket.readyState === OPEN) socket.send(text);
      else queued.push(text);
    });
  }

  connect();

  return {
    call: (channel, input) => send({ t: 'call', id: nextId++, method: channel, input }, { resolve: () => {} }),
    stream: (channel, input, streamId, onChunk) =>
      send({ t: 'stream', id: nextId++, method: channel, input, streamId }, { resolve: () => {}, stream: { streamId, onChunk } }),
    subscribe(channel, callback) {
      let set = subscribers.get(channel);
      if (!set) subscribers.set(channel, (set = new Set()));
      set.add(callback);
      return () => {
        set.delete(callback);
        if (set.size === 0 && subscribers.get(channel) === set) subscribers.delete(channel);
      };
    },
    status: () => status,
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      if (timer) clearTimeout(timer);
      const ws = socket;
      socket = null;
      failAll('The connection to the workbench process was closed.');
      ws?.close(1000, 'closed by the page');
      setStatus('disconnected');
    },
  };
}
