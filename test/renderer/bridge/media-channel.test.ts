import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMediaChannel, type FramePortEvents, type FramePortHandle } from '../../../renderer/src/bridge/media-channel';
import { decodeFrame, encodeFrame, FrameKind, type MediaFrame } from '../../../shared/media-frames/frame';
import { decodePong, encodePong } from '../../../shared/media-frames/clock';

/** A transport the test drives: what the page wrote, and how full it claims to be. */
function fakePort() {
  const ports: Array<{ events: FramePortEvents; sent: MediaFrame[]; buffered: number; closed: boolean }> = [];
  const connect = vi.fn(async (events: FramePortEvents): Promise<FramePortHandle> => {
    const port = { events, sent: [] as MediaFrame[], buffered: 0, closed: false };
    ports.push(port);
    return {
      send: (bytes) => {
        const d = decodeFrame(bytes);
        if (d.ok) port.sent.push({ ...d.frame, payload: d.frame.payload.slice() });
      },
      buffered: () => port.buffered,
      close: () => void (port.closed = true),
    };
  });
  return { ports, connect };
}

const data = (sent: MediaFrame[]) => sent.filter((f) => f.kind === FrameKind.Data || f.kind === FrameKind.Audio);
const frame = (streamId: number, seq: number, timestamp = 1000) => encodeFrame({ kind: FrameKind.Audio, streamId, seq, timestamp, payload: new Uint8Array([seq]) });

let now = 1000;
afterEach(() => {
  vi.useRealTimers();
  now = 1000;
});

describe('media channel (page side)', () => {
  it('holds frames while connecting, bounded: the oldest are dropped and counted, the rest sent in order on open', async () => {
    vi.useFakeTimers();
    const { ports, connect } = fakePort();
    const channel = createMediaChannel({ connect, now: () => now, queue: { maxFrames: 3, maxAgeMs: 1000 } });
    for (let i = 0; i < 5; i++) channel.send(9, FrameKind.Audio, new Uint8Array([i]));
    await vi.advanceTimersByTimeAsync(0);
    ports[0].events.onOpen();
    const sent = data(ports[0].sent);
    expect(sent.map((f) => [f.seq, f.payload[0]])).toEqual([[2, 2], [3, 3], [4, 4]]);
    expect(channel.stats().queue).toMatchObject({ pushed: 5, taken: 3, droppedFull: 2, droppedStale: 0 });
    channel.close();
  });

  it('waits while the transport is full and drops what grew stale meanwhile', async () => {
    vi.useFakeTimers();
    const { ports, connect } = fakePort();
    const channel = createMediaChannel({ connect, now: () => now, queue: { maxFrames: 100, maxAgeMs: 100 }, highWaterBytes: 10 });
    await vi.advanceTimersByTimeAsync(0);
    ports[0].events.onOpen();
    ports[0].buffered = 1000;
    channel.send(1, FrameKind.Audio, new Uint8Array([0]));
    now += 150;
    channel.send(1, FrameKind.Audio, new Uint8Array([1]));
    ports[0].buffered = 0;
    await vi.advanceTimersByTimeAsync(10);
    expect(data(ports[0].sent).map((f) => f.payload[0])).toEqual([1]);
    expect(channel.stats().queue).toMatchObject({ droppedStale: 1, taken: 1 });
    channel.close();
  });

  it('subscribes to a stream, delivers in order, counts gaps, drops out-of-order frames', async () => {
    vi.useFakeTimers();
    const { ports, connect } = fakePort();
    const channel = createMediaChannel({ connect, now: () => now });
    const got: number[] = [];
    channel.onFrame(4, (f) => got.push(f.seq));
    await vi.advanceTimersByTimeAsync(0);
    ports[0].events.onOpen();
    expect(ports[0].sent.filter((f) => f.kind === FrameKind.Subscribe).map((f) => f.streamId)).toEqual([4]);
    for (const seq of [0, 1, 3, 2, 4]) ports[0].events.onMessage(frame(4, seq));
    ports[0].events.onMessage(frame(5, 0)); // not subscribed
    ports[0].events.onMessage(new Uint8Array([1, 2, 3])); // malformed
    expect(got).toEqual([0, 1, 3, 4]);
    expect(channel.stats()).toMatchObject({ streams: { 4: { received: 5, delivered: 4, gaps: 1, missing: 1, outOfOrder: 1 } }, malformed: 1 });
    channel.close();
  });

  it('reconnects after a drop and subscribes again', async () => {
    vi.useFakeTimers();
    const { ports, connect } = fakePort();
    const channel = createMediaChannel({ connect, now: () => now, backoff: { initialMs: 100, maxMs: 100 } });
    channel.onFrame(4, () => {});
    await vi.advanceTimersByTimeAsync(0);
    ports[0].events.onOpen();
    ports[0].events.onClose();
    expect(channel.state()).toBe('connecting');
    await vi.advanceTimersByTimeAsync(100);
    ports[1].events.onOpen();
    expect(channel.state()).toBe('open');
    expect(ports[1].sent.filter((f) => f.kind === FrameKind.Subscribe).map((f) => f.streamId)).toEqual([4]);
    expect(channel.stats().connects).toBe(2);
    channel.close();
    expect(ports[1].closed).toBe(true);
  });

  it('answers pings and learns the media clock from its pongs, then ages frames by it', async () => {
    vi.useFakeTimers();
    const { ports, connect } = fakePort();
    const channel = createMediaChannel({ connect, now: () => now });
    const ages: Array<number | undefined> = [];
    channel.onFrame(4, (_f, info) => ages.push(info.ageMs));
    await vi.advanceTimersByTimeAsync(0);
    ports[0].events.onOpen();
    const ping = ports[0].sent.find((f) => f.kind === FrameKind.Ping)!;
    // The media clock reads 500 ms ahead; 2 ms each way.
    now = ping.timestamp + 4;
    ports[0].events.onMessage(encodeFrame({ kind: FrameKind.Pong, streamId: 0, seq: ping.seq, timestamp: 0, payload: encodePong(ping.timestamp, ping.timestamp + 502, ping.timestamp + 502) }));
    expect(channel.clock()).toMatchObject({ offset: 500, rtt: 4 });
    // A frame stamped 30 ms ago on the media clock.
    ports[0].events.onMessage(frame(4, 0, now + 500 - 30));
    expect(ages).toEqual([30]);
    // The media process pings us: we answer with our receive and send times.
    ports[0].events.onMessage(encodeFrame({ kind: FrameKind.Ping, streamId: 0, seq: 7, timestamp: 1234, payload: new Uint8Array() }));
    const pong = ports[0].sent.find((f) => f.kind === FrameKind.Pong)!;
    expect(pong.seq).toBe(7);
    expect(decodePong(pong.payload)).toEqual([1234, now, now]);
    channel.close();
  });
});
