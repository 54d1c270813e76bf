/**
 * Browser mode's side of the contract: a BridgeTransport over one WebSocket to the workbench
 * process. Framework-free and DOM-free (the socket is injected) so it runs in Node tests too.
 *
 * A message that carries a Uint8Array goes as a binary frame (shared/contract/binary-frame.ts),
 * and binary frames from main are decoded the same way (a dropped file's slices do not come this
 * way: upload-lane.ts posts them unread). Outgoing messages wait in one ordered
 * queue while the socket's `bufferedAmount` is above SOCKET_HIGH_WATER_BYTES (polled: browsers
 * have no drain event), so a page sending bytes faster than the socket takes them waits instead of
 * growing the socket's buffer.
 *
 * Calls made while the socket is (re)connecting wait for it; everything in flight fails with a
 * 'network' WorkbenchError when the socket drops or an attempt fails, and the transport keeps
 * reconnecting with backoff — except sessions opened with `reattach` (a live attachment): those
 * stay open in the page and are started again, same id and input, first thing on the new socket,
 * so the page just sees main's fresh snapshot arrive as the next chunk. Event subscriptions
 * survive reconnects (the server broadcasts events to every tab; filtering is local); keyed
 * subscriptions (`ops.subscribe`) are made again on every new socket, since main forgets a
 * socket's subscriptions when it closes. A token the process refuses stops the retries until
 * `setToken` gives a new one (the user opened the newly printed link in this tab).
 */
import type { BridgeTransport } from '../../../shared/contract/bridge';
import { decodeBinaryFrame, encodeBinaryFrame, hasBytes } from '../../../shared/contract/binary-frame';
import { KeyedListeners } from '../../../shared/contract/keyed-listeners';
import { SOCKET_HIGH_WATER_BYTES, type CallReply, type ClientMessage, type ServerMessage } from '../../../shared/contract/protocol';

/**
 * Where the connection stands; 'no-token' means the page was opened without its access token,
 * 'unauthorized' that the process is running but refused the token (no reconnecting helps).
 */
export type BridgeStatus = 'connecting' | 'connected' | 'disconnected' | 'no-token' | 'unauthorized';

/**
 * What a failed connection attempt meant, asked of the process over plain HTTP (a browser does
 * not tell a page why a WebSocket upgrade failed): it answered and refused the token, or it did
 * not answer at all.
 */
export type ReachProbe = (token: string) => Promise<'ok' | 'unauthorized' | 'unreachable'>;

/** What every call gets when the token is refused: what happened and what to do, once. */
export const UNAUTHORIZED_MESSAGE =
  'The workbench process is running but refused this page\'s access token: it is from an earlier start (the process was restarted since). Open the link `npm start` printed when it started (it ends with #token=…); pasting it into this tab is enough.';

/** The part of the WHATWG WebSocket used here (the browser's, or the `ws` package's in tests). */
export interface SocketLike {
  readonly readyState: number;
  /** Bytes written but not yet sent (browsers and `ws`; absent in minimal fakes: counts as 0). */
  readonly bufferedAmount?: number;
  /** Set to 'arraybuffer' so binary frames arrive as ArrayBuffers. */
  binaryType?: string;
  send(data: string | Uint8Array): void;
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
  /** Back-pressure threshold; defaults to SOCKET_HIGH_WATER_BYTES. */
  highWaterBytes?: number;
  /** How often a full socket is checked again. Default 5 ms. */
  drainPollMs?: number;
  /** Asked after an attempt fails before opening; without it, every failure is "unreachable". */
  probe?: ReachProbe;
}

export interface WsTransport extends BridgeTransport {
  status(): BridgeStatus;
  /**
   * Uses `token` from now on: a token other than the current one (or any token while refused or
   * disconnected) drops the socket and connects again at once; what was in flight fails.
   */
  setToken(token: string): void;
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
  /** A reattaching session: its encoded start message, sent again on every new socket. */
  reattach?: string | Uint8Array;
}

function networkFailure(message: string): CallReply {
  return { ok: false, error: { code: 'network', message } };
}

export function createWsTransport(options: WsTransportOptions): WsTransport {
  const backoff = options.backoff ?? { initialMs: 250, maxMs: 5000 };
  let token = options.token;
  const pending = new Map<number, Pending>();
  const streams = new Map<string, number>();
  const highWater = options.highWaterBytes ?? SOCKET_HIGH_WATER_BYTES;
  const drainPollMs = options.drainPollMs ?? 5;
  const queued: Array<string | Uint8Array> = [];
  let drainTimer: ReturnType<typeof setTimeout> | null = null;
  const subscribers = new Map<string, Set<(payload: unknown) => void>>();
  const keyed = new KeyedListeners();
  const statusListeners = new Set<(status: BridgeStatus) => void>();
  let status: BridgeStatus = 'connecting';
  let socket: SocketLike | null = null;
  let nextId = 1;
  let delay = backoff.initialMs;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let disposed = false;
  /** Bumped per connection attempt: a probe answering for an abandoned attempt is ignored. */
  let attempt = 0;

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

  /** Fails what is in flight; reattaching sessions stay open unless `all` (disposed, token refused). */
  function failAll(message: string, all = true): void {
    queued.length = 0;
    for (const [id, entry] of [...pending]) if (all || !entry.reattach) settle(id, networkFailure(message));
  }

  /**
   * A new socket: keyed subscriptions and reattaching sessions start again, before anything
   * queued while it connected (main forgot both with the old socket).
   */
  function reattachAll(): void {
    const starts = [...pending.values()].flatMap((entry) => (entry.reattach ? [entry.reattach] : []));
    const subscriptions = keyed.entries().map(({ channel, key }) =>
      JSON.stringify({ t: 'call', id: nextId++, method: 'ops.subscribe', input: { channel, key } } satisfies ClientMessage),
    );
    queued.unshift(...subscriptions, ...starts);
  }

  function tellMain(op: 'ops.subscribe' | 'ops.unsubscribe', channel: string, key: string): void {
    // Before the first socket opens, reattachAll sends every subscription anyway.
    if (status !== 'connected') return;
    void send({ t: 'call', id: nextId++, method: op, input: { channel, key } }, { resolve: () => {} });
  }

  function decode(data: unknown): ServerMessage | null {
    try {
      if (typeof data === 'string') return JSON.parse(data) as ServerMessage;
      if (data instanceof ArrayBuffer) return decodeBinaryFrame(new Uint8Array(data)) as ServerMessage;
      if (ArrayBuffer.isView(data)) return decodeBinaryFrame(new Uint8Array(data.buffer, data.byteOffset, data.byteLength)) as ServerMessage;
    } catch {
      // A frame we cannot read is dropped: whatever waits on it fails when the socket goes.
    }
    return null;
  }

  /** Writes queued messages in order while the socket has room; polls again when it is full. */
  function flush(): void {
    drainTimer = null;
    const ws = socket;
    if (!ws || ws.readyState !== OPEN) return;
    while (queued.length > 0 && (ws.bufferedAmount ?? 0) <= highWater) ws.send(queued.shift() as string | Uint8Array);
    if (queued.length > 0) drainTimer = setTimeout(flush, drainPollMs);
  }

  function onMessage(data: unknown): void {
    const msg = decode(data);
    if (!msg) return;
    if (msg.t === 'reply') settle(msg.id, msg.reply);
    else if (msg.t === 'end') {
      const id = streams.get(msg.streamId);
      if (id !== undefined) settle(id, msg.reply);
    } else if (msg.t === 'chunk') {
      const id = streams.get(msg.streamId);
      const entry = id === undefined ? undefined : pending.get(id);
      entry?.stream?.onChunk(msg.chunk);
    } else if (msg.t === 'event' && typeof msg.key === 'string') {
      keyed.dispatch(msg.channel, msg.key, msg.payload);
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
    const mine = ++attempt;
    const ws = options.connect(options.url, ['workbench', `token.${token}`]);
    ws.binaryType = 'arraybuffer';
    socket = ws;
    ws.onopen = () => {
      opened = true;
      delay = backoff.initialMs;
      reattachAll();
      setStatus('connected');
      flush();
    };
    ws.onmessage = (event) => onMessage(event.data);
    ws.onerror = () => {};
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      if (opened || !options.probe) return dropped(opened);
      // Calls wait for the answer, so none is told "is it still running?" when it is.
      void options.probe(token).then(
        (reach) => mine === attempt && (reach === 'unauthorized' ? refused() : dropped(false)),
        () => mine === attempt && dropped(false),
      );
    };
  }

  /** The process answered and refused the token: say so to every call and stop trying. */
  function refused(): void {
    failAll(UNAUTHORIZED_MESSAGE);
    if (disposed) return;
    setStatus('unauthorized');
  }

  function dropped(opened: boolean): void {
    failAll(
      opened
        ? 'Disconnected from the workbench process before it answered. Reconnecting; try again in a moment.'
        : 'Cannot reach the workbench process. Is it still running? (Retrying.)',
      false,
    );
    if (disposed) return;
    setStatus('disconnected');
    timer = setTimeout(connect, delay);
    delay = Math.min(delay * 2, backoff.maxMs);
  }

  function send(message: ClientMessage, entry: Pending): Promise<CallReply> {
    return new Promise<CallReply>((resolve) => {
      if (disposed) return resolve(networkFailure('The connection to the workbench process was closed.'));
      if (status === 'unauthorized') return resolve(networkFailure(UNAUTHORIZED_MESSAGE));
      pending.set(message.id, { ...entry, resolve });
      if (entry.stream) streams.set(entry.stream.streamId, message.id);
      let data: string | Uint8Array;
      try {
        data = hasBytes(message) ? encodeBinaryFrame(message) : JSON.stringify(message);
      } catch {
        settle(message.id, { ok: false, error: { code: 'invalid_input', message: 'The input cannot be sent (it is not plain data).' } });
        return;
      }
      if (entry.reattach !== undefined) {
        const stored = pending.get(message.id);
        if (stored) stored.reattach = data;
      }
      // Not yet connected: a reattaching session is sent by reattachAll when the socket opens.
      if (entry.reattach !== undefined && status !== 'connected') return;
      queued.push(data);
      if (!drainTimer) flush();
    });
  }

  connect();

  return {
    call: (channel, input, opId) => send({ t: 'call', id: nextId++, method: channel, input, opId }, { resolve: () => {} }),
    stream: (channel, input, streamId, onChunk, streamOptions) =>
      send(
        { t: 'stream', id: nextId++, method: channel, input, streamId },
        { resolve: () => {}, stream: { streamId, onChunk }, ...(streamOptions?.reattach ? { reattach: '' } : {}) },
      ),
    subscribe(channel, callback) {
      let set = subscribers.get(channel);
      if (!set) subscribers.set(channel, (set = new Set()));
      set.add(callback);
      return () => {
        set.delete(callback);
        if (set.size === 0 && subscribers.get(channel) === set) subscribers.delete(channel);
      };
    },
    subscribeKeyed(channel, key, callback) {
      const entry = keyed.add(channel, key, callback);
      if (entry.first) tellMain('ops.subscribe', channel, key);
      return () => {
        if (entry.remove()) tellMain('ops.unsubscribe', channel, key);
      };
    },
    status: () => status,
    setToken(next) {
      if (disposed || (next === token && (status === 'connected' || status === 'connecting'))) return;
      token = next;
      if (timer) clearTimeout(timer);
      timer = null;
      delay = backoff.initialMs;
      const ws = socket;
      socket = null;
      attempt++;
      failAll('Reconnecting to the workbench process with the new access token; try again in a moment.', false);
      ws?.close(1000, 'a new access token');
      connect();
    },
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      if (timer) clearTimeout(timer);
      if (drainTimer) clearTimeout(drainTimer);
      const ws = socket;
      socket = null;
      failAll('The connection to the workbench process was closed.');
      ws?.close(1000, 'closed by the page');
      setStatus('disconnected');
    },
  };
}
