/**
 * The page's real-time frame channel to the media process (main/media), beside the contract and
 * past main's event loop: browser mode, the media process's own WebSocket (`webSocketFramePort`);
 * Electron, a MessagePort the preload hands over (`window.workbenchMedia`). Framework-free and
 * DOM-free (the socket is injected) so it runs in Node tests too.
 *
 * `send` never waits and never fails for load: frames wait in a queue bounded in count and time
 * (drop-oldest, counted: shared/media-frames/queue.ts) while the transport is full or
 * reconnecting. `onFrame(streamId, cb)` subscribes to a stream (the media process sends a stream
 * only to channels that asked); each stream's sequence numbers are checked (gaps, out-of-order
 * frames counted; out-of-order ones are not delivered). Both ends ping each other, so the page
 * knows the media process's clock offset and each delivered frame's age on arrival.
 */
import { ClockOffset, decodePong, encodePong, monotonicMs, type ClockEstimate } from '../../../shared/media-frames/clock';
import { decodeFrame, encodeFrame, FrameKind, nextSeq, type MediaFrame } from '../../../shared/media-frames/frame';
import { FrameQueue, type FrameQueueCounters, type FrameQueueLimits } from '../../../shared/media-frames/queue';
import { FrameReceiver, type ReceiverCounters } from '../../../shared/media-frames/receiver';
import type { WorkbenchMediaApi } from '../../../shared/contract/media-channel';
import type { SocketLike } from './ws-transport';

/** One open transport to the media process. */
export interface FramePortHandle {
  send(bytes: Uint8Array): void;
  /** Bytes handed over and not yet sent (a WebSocket's bufferedAmount); 0 where unknown. */
  buffered(): number;
  close(): void;
}

export interface FramePortEvents {
  onOpen(): void;
  onMessage(bytes: Uint8Array): void;
  /** The transport closed (or never opened): the channel reconnects. */
  onClose(): void;
}

/** Opens a transport; may ask main where first (`media.channel`), so it is async. */
export type FramePortConnect = (events: FramePortEvents) => Promise<FramePortHandle>;

export interface MediaChannelOptions {
  connect: FramePortConnect;
  now?: () => number;
  queue?: Partial<FrameQueueLimits>;
  /** The transport counts as full above this many buffered bytes. Default 256 KiB. */
  highWaterBytes?: number;
  /** Reconnect delays: first, then doubled up to max. Default 250 ms .. 5 s. */
  backoff?: { initialMs: number; maxMs: number };
  /** Clock pings: a burst of 5 at each open, then every this many ms. Default 2000. */
  pingEveryMs?: number;
}

export interface DeliveredInfo {
  /** How old the frame was on arrival (ms), once the clock offset is known. */
  ageMs?: number;
}

export type MediaChannelState = 'connecting' | 'open' | 'closed';

export interface MediaChannelStats {
  state: MediaChannelState;
  queue: FrameQueueCounters;
  streams: Record<number, ReceiverCounters>;
  clock: ClockEstimate | null;
  malformed: number;
  connects: number;
}

export interface MediaChannel {
  /** Queues one frame on `streamId` (sequence number added; timestamp defaults to now). */
  send(streamId: number, kind: FrameKind, payload: Uint8Array, timestamp?: number): void;
  onFrame(streamId: number, callback: (frame: MediaFrame, info: DeliveredInfo) => void): () => void;
  /** The media process's clock minus ours, from the min-RTT ping of the last few. */
  clock(): ClockEstimate | null;
  stats(): MediaChannelStats;
  state(): MediaChannelState;
  close(): void;
}

export function createMediaChannel(options: MediaChannelOptions): MediaChannel {
  const now = options.now ?? monotonicMs;
  const highWater = options.highWaterBytes ?? 256 * 1024;
  const backoff = options.backoff ?? { initialMs: 250, maxMs: 5000 };
  const queue = new FrameQueue<Uint8Array>(options.queue, now);
  const outSeq = new Map<number, number>();
  const subscribers = new Map<number, Set<(frame: MediaFrame, info: DeliveredInfo) => void>>();
  const receivers = new Map<number, FrameReceiver>();
  const clock = new ClockOffset();
  let state: MediaChannelState = 'connecting';
  let port: FramePortHandle | null = null;
  let open = false;
  let closed = false;
  let delay = backoff.initialMs;
  let pumpTimer: ReturnType<typeof setTimeout> | null = null;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let pinger: ReturnType<typeof setInterval> | null = null;
  let pingSeq = 0;
  let malformed = 0;
  let connects = 0;
  let attempt = 0;

  function control(kind: FrameKind, streamId: number, seq = 0, payload = new Uint8Array()): void {
    if (open && port) port.send(encodeFrame({ kind, streamId, seq, timestamp: now(), payload }));
  }

  function ping(): void {
    control(FrameKind.Ping, 0, pingSeq);
    pingSeq = nextSeq(pingSeq);
  }

  function pump(): void {
    pumpTimer = null;
    if (!open || !port) {
      queue.expire();
      return;
    }
    while (queue.size > 0 && port.buffered() <= highWater) {
      const bytes = queue.take();
      if (bytes) port.send(bytes);
    }
    // No drain event on a browser WebSocket: look again shortly (stale frames expire meanwhile).
    if (queue.size > 0) pumpTimer = setTimeout(pump, 5);
  }

  function onMessage(bytes: Uint8Array): void {
    const arrived = now();
    const decoded = decodeFrame(bytes);
    if (!decoded.ok) {
      malformed++;
      return;
    }
    const frame = decoded.frame;
    if (frame.kind === FrameKind.Ping) {
      if (open && port) port.send(encodeFrame({ kind: FrameKind.Pong, streamId: 0, seq: frame.seq, timestamp: now(), payload: encodePong(frame.timestamp, arrived, now()) }));
      return;
    }
    if (frame.kind === FrameKind.Pong) {
      const t = decodePong(frame.payload);
      if (t) clock.add(t[0], t[1], t[2], arrived);
      return;
    }
    const callbacks = subscribers.get(frame.streamId);
    if (!callbacks) return;
    let receiver = receivers.get(frame.streamId);
    if (!receiver) receivers.set(frame.streamId, (receiver = new FrameReceiver()));
    const sentAt = clock.toLocal(frame.timestamp);
    const ageMs = sentAt === null ? undefined : arrived - sentAt;
    if (receiver.accept(frame.seq, ageMs) === 'out-of-order') return;
    for (const cb of [...callbacks]) {
      try {
        cb(frame, { ageMs });
      } catch (err) {
        // One broken listener must not starve the others; surface it like an uncaught error.
        setTimeout(() => {
          throw err;
        });
      }
    }
  }

  function dropped(mine: number): void {
    if (mine !== attempt) return;
    open = false;
    port = null;
    if (pinger) clearInterval(pinger);
    pinger = null;
    if (closed) return;
    state = 'connecting';
    reconnectTimer = setTimeout(connect, delay);
    delay = Math.min(delay * 2, backoff.maxMs);
  }

  function connect(): void {
    reconnectTimer = null;
    if (closed) return;
    const mine = ++attempt;
    state = 'connecting';
    let opened = false;
    let handle: FramePortHandle | null = null;
    options
      .connect({
        onOpen: () => {
          if (mine !== attempt || closed) return;
          opened = true;
          if (handle) started(handle);
        },
        onMessage: (bytes) => {
          if (mine === attempt) onMessage(bytes);
        },
        onClose: () => dropped(mine),
      })
      .then(
        (h) => {
          if (mine !== attempt || closed) return h.close();
          handle = h;
          // A MessagePort is open at once: its onOpen may come before the handle.
          if (opened) started(h);
        },
        () => dropped(mine),
      );
  }

  /** The transport is open and its handle known: subscribe, start the clock, send what waited. */
  function started(h: FramePortHandle): void {
    port = h;
    open = true;
    state = 'open';
    connects++;
    delay = backoff.initialMs;
    for (const streamId of subscribers.keys()) control(FrameKind.Subscribe, streamId);
    let burst = 0;
    ping();
    pinger = setInterval(() => {
      ping();
      if (++burst === 4 && pinger) {
        clearInterval(pinger);
        pinger = setInterval(ping, options.pingEveryMs ?? 2000);
      }
    }, 50);
    pump();
  }

  connect();

  return {
    send(streamId, kind, payload, timestamp = now()) {
      if (closed) return;
      const seq = outSeq.get(streamId) ?? 0;
      outSeq.set(streamId, nextSeq(seq));
      queue.push(encodeFrame({ kind, streamId, seq, timestamp, payload }));
      if (!pumpTimer) pump();
    },
    onFrame(streamId, callback) {
      let set = subscribers.get(streamId);
      if (!set) {
        subscribers.set(streamId, (set = new Set()));
        control(FrameKind.Subscribe, streamId);
      }
      set.add(callback);
      return () => {
        set.delete(callback);
        if (set.size > 0 || subscribers.get(streamId) !== set) return;
        subscribers.delete(streamId);
        control(FrameKind.Unsubscribe, streamId);
      };
    },
    clock: () => clock.estimate(),
    stats: () => ({
      state,
      queue: queue.stats(),
      streams: Object.fromEntries([...receivers].map(([id, r]) => [id, r.stats()])),
      clock: clock.estimate(),
      malformed,
      connects,
    }),
    state: () => state,
    close() {
      if (closed) return;
      closed = true;
      state = 'closed';
      attempt++;
      if (pumpTimer) clearTimeout(pumpTimer);
      if (reconnectTimer) clearTimeout(reconnectTimer);
      if (pinger) clearInterval(pinger);
      open = false;
      port?.close();
      port = null;
      queue.clear();
    },
  };
}

/**
 * Browser mode's transport: the media process's WebSocket, guarded by its own token (offered as
 * the `token.<t>` subprotocol, like main's). `where` asks main for the address each time (after a
 * media-process restart it has a new port and token).
 */
export function webSocketFramePort(
  where: () => Promise<{ url: string; token: string }>,
  open: (url: string, protocols: string[]) => SocketLike,
): FramePortConnect {
  return async (events) => {
    const { url, token } = await where();
    const ws = open(url, ['workbench', `token.${token}`]);
    ws.binaryType = 'arraybuffer';
    ws.onopen = () => events.onOpen();
    ws.onmessage = (event) => {
      const data = event.data;
      if (data instanceof ArrayBuffer) events.onMessage(new Uint8Array(data));
      else if (ArrayBuffer.isView(data)) events.onMessage(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    };
    ws.onerror = () => {};
    ws.onclose = () => events.onClose();
    return {
      send: (bytes) => {
        if (ws.readyState === 1) ws.send(bytes);
      },
      buffered: () => ws.bufferedAmount ?? 0,
      close: () => ws.close(1000, 'closed by the page'),
    };
  };
}

/** Electron's transport: the preload's `window.workbenchMedia` (a MessagePort to the media process). */
export function electronFramePort(api: WorkbenchMediaApi): FramePortConnect {
  return async (events) => {
    const connection = await api.open(
      (bytes) => events.onMessage(bytes),
      () => events.onClose(),
    );
    events.onOpen();
    return { send: (bytes) => connection.send(bytes), buffered: () => 0, close: () => connection.close() };
  };
}
