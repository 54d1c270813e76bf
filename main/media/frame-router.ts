/**
 * The media process's switchboard: page channels (a WebSocket in browser mode, a MessagePort in
 * Electron) on one side, session streams on the other. A page subscribes to a stream's frames
 * with a Subscribe frame; frames it sends are handed to the stream's input. Each channel has its
 * own bounded send queue (shared/media-frames/queue.ts): while its transport is full, frames
 * wait, the oldest dropped and counted. Pings are answered at once, and each channel is pinged
 * now and then so sessions can tell how old an inbound frame is on the media process's clock.
 */
import { ClockOffset, decodePong, encodePong } from '../../shared/media-frames/clock';
import { decodeFrame, encodeFrame, FrameKind, nextSeq, type MediaFrame } from '../../shared/media-frames/frame';
import { FrameQueue, type FrameQueueCounters, type FrameQueueLimits } from '../../shared/media-frames/queue';
import { FrameReceiver, type ReceiverCounters } from '../../shared/media-frames/receiver';
import type { InboundInfo } from './session-kinds';

export interface FrameSink {
  write(bytes: Uint8Array): void;
  /** Bytes handed over and not yet sent (a WebSocket's bufferedAmount); 0 where unknown. */
  buffered(): number;
  close(): void;
}

export interface FrameRouterOptions {
  now: () => number;
  log: (line: string) => void;
  queue?: Partial<FrameQueueLimits>;
  /** A channel's transport counts as full above this many buffered bytes. Default 256 KiB. */
  highWaterBytes?: number;
  /** Clock pings per channel: first a burst of 5, then every this many ms. Default 2000. */
  pingEveryMs?: number;
}

interface Channel {
  id: string;
  sink: FrameSink;
  subscriptions: Set<number>;
  queue: FrameQueue<Uint8Array>;
  clock: ClockOffset;
  pingSeq: number;
  timer: ReturnType<typeof setTimeout> | null;
  pinger: ReturnType<typeof setInterval> | null;
  malformed: number;
}

interface Input {
  onFrame(frame: MediaFrame, info: InboundInfo): void;
  /**
   * One receiver per page channel: each channel numbers its frames from 0, so a page that
   * reloaded (a new channel) and goes on sending to the same session is not taken for late frames.
   */
  receivers: Map<Channel, FrameReceiver>;
}

const ZERO_COUNTERS: ReceiverCounters = { received: 0, delivered: 0, gaps: 0, missing: 0, outOfOrder: 0, late: 0 };

export interface ChannelHandle {
  /** One message from the page. */
  receive(bytes: Uint8Array): void;
  close(): void;
}

export interface ChannelStats {
  id: string;
  queue: FrameQueueCounters;
  malformed: number;
  clock: { offset: number; rtt: number; samples: number } | null;
}

export class FrameRouter {
  private readonly channels = new Map<string, Channel>();
  private readonly inputs = new Map<number, Input>();
  private readonly outputSeq = new Map<number, number>();
  private nextStream = 1;
  private readonly highWater: number;

  constructor(private readonly options: FrameRouterOptions) {
    this.highWater = options.highWaterBytes ?? 256 * 1024;
  }

  /** A new stream id (never 0: that is the channel's own). */
  allocateStream(): number {
    const id = this.nextStream;
    this.nextStream = this.nextStream >= 0xffff_ffff ? 1 : this.nextStream + 1;
    return id;
  }

  /** Sends a frame on output `streamId` to every channel subscribed to it. */
  send(streamId: number, kind: FrameKind, payload: Uint8Array, timestamp = this.options.now()): void {
    const seq = this.outputSeq.get(streamId) ?? 0;
    this.outputSeq.set(streamId, nextSeq(seq));
    let bytes: Uint8Array | null = null;
    for (const channel of this.channels.values()) {
      if (!channel.subscriptions.has(streamId)) continue;
      bytes ??= encodeFrame({ kind, streamId, seq, timestamp, payload });
      channel.queue.push(bytes);
      this.pump(channel);
    }
  }

  subscribers(streamId: number): number {
    let n = 0;
    for (const channel of this.channels.values()) if (channel.subscriptions.has(streamId)) n++;
    return n;
  }

  setInput(streamId: number, onFrame: Input['onFrame']): { stats(): ReceiverCounters } {
    const receivers = new Map<Channel, FrameReceiver>();
    this.inputs.set(streamId, { onFrame, receivers });
    // Counters over every channel that sent to it (a closed channel's frames still count).
    return {
      stats: () => {
        const sum = { ...ZERO_COUNTERS };
        for (const r of receivers.values()) for (const [k, v] of Object.entries(r.stats()) as Array<[keyof ReceiverCounters, number]>) sum[k] += v;
        return sum;
      },
    };
  }

  /** The stream is gone (its session ended): frames for it are ignored from now on. */
  release(streamId: number): void {
    this.inputs.delete(streamId);
    this.outputSeq.delete(streamId);
  }

  addChannel(id: string, sink: FrameSink): ChannelHandle {
    this.channels.get(id)?.sink.close();
    const channel: Channel = {
      id,
      sink,
      subscriptions: new Set(),
      queue: new FrameQueue<Uint8Array>(this.options.queue, this.options.now),
      clock: new ClockOffset(),
      pingSeq: 0,
      timer: null,
      pinger: null,
      malformed: 0,
    };
    this.channels.set(id, channel);
    let burst = 0;
    const ping = () => this.ping(channel);
    channel.pinger = setInterval(() => {
      ping();
      // A burst of five first (a usable estimate within a quarter second), then a slow beat.
      if (++burst === 5 && channel.pinger) {
        clearInterval(channel.pinger);
        channel.pinger = setInterval(ping, this.options.pingEveryMs ?? 2000);
        channel.pinger.unref?.();
      }
    }, 50);
    channel.pinger.unref?.();
    return {
      receive: (bytes) => this.receive(channel, bytes),
      close: () => this.closeChannel(channel),
    };
  }

  stats(): ChannelStats[] {
    return [...this.channels.values()].map((c) => ({ id: c.id, queue: c.queue.stats(), malformed: c.malformed, clock: c.clock.estimate() }));
  }

  dispose(): void {
    for (const channel of [...this.channels.values()]) {
      this.closeChannel(channel);
      channel.sink.close();
    }
    this.inputs.clear();
  }

  private closeChannel(channel: Channel): void {
    if (this.channels.get(channel.id) !== channel) return;
    this.channels.delete(channel.id);
    if (channel.timer) clearTimeout(channel.timer);
    if (channel.pinger) clearInterval(channel.pinger);
    channel.queue.clear();
  }

  private ping(channel: Channel): void {
    this.writeNow(channel, encodeFrame({ kind: FrameKind.Ping, streamId: 0, seq: channel.pingSeq, timestamp: this.options.now(), payload: new Uint8Array() }));
    channel.pingSeq = nextSeq(channel.pingSeq);
  }

  /** Clock traffic skips the queue (its timing is its content) unless the transport is full. */
  private writeNow(channel: Channel, bytes: Uint8Array): void {
    if (channel.queue.size === 0 && channel.sink.buffered() <= this.highWater) channel.sink.write(bytes);
    else {
      channel.queue.push(bytes);
      this.pump(channel);
    }
  }

  private pump(channel: Channel): void {
    if (channel.timer) return;
    while (channel.queue.size > 0 && channel.sink.buffered() <= this.highWater) {
      const bytes = channel.queue.take();
      if (bytes) channel.sink.write(bytes);
    }
    if (channel.queue.size > 0) {
      // No drain event on either transport: look again shortly (stale frames expire meanwhile).
      channel.timer = setTimeout(() => {
        channel.timer = null;
        if (this.channels.get(channel.id) === channel) this.pump(channel);
      }, 5);
    }
  }

  private receive(channel: Channel, bytes: Uint8Array): void {
    const arrived = this.options.now();
    const decoded = decodeFrame(bytes);
    if (!decoded.ok) {
      if (channel.malformed++ === 0) this.options.log(`[media] channel ${channel.id}: ${decoded.message} (further ones counted, not logged)`);
      return;
    }
    const frame = decoded.frame;
    switch (frame.kind) {
      case FrameKind.Ping:
        this.writeNow(channel, encodeFrame({ kind: FrameKind.Pong, streamId: 0, seq: frame.seq, timestamp: this.options.now(), payload: encodePong(frame.timestamp, arrived, this.options.now()) }));
        return;
      case FrameKind.Pong: {
        const t = decodePong(frame.payload);
        if (t) channel.clock.add(t[0], t[1], t[2], arrived);
        return;
      }
      case FrameKind.Subscribe:
        channel.subscriptions.add(frame.streamId);
        return;
      case FrameKind.Unsubscribe:
        channel.subscriptions.delete(frame.streamId);
        return;
      default: {
        const input = this.inputs.get(frame.streamId);
        if (!input) return;
        const sentAt = channel.clock.toLocal(frame.timestamp);
        const ageMs = sentAt === null ? undefined : arrived - sentAt;
        let receiver = input.receivers.get(channel);
        if (!receiver) input.receivers.set(channel, (receiver = new FrameReceiver()));
        if (receiver.accept(frame.seq, ageMs) === 'out-of-order') return;
        input.onFrame(frame, { ageMs });
      }
    }
  }
}
