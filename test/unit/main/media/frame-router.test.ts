import { afterEach, describe, expect, it, vi } from 'vitest';
import { FrameRouter } from '../../../../main/media/frame-router';
import { decodePong, encodePong } from '../../../../shared/media-frames/clock';
import { decodeFrame, encodeFrame, FrameKind, type MediaFrame } from '../../../../shared/media-frames/frame';

function sink() {
  const written: MediaFrame[] = [];
  const s = { buffered: 0, closed: false, written };
  return {
    s,
    sink: {
      write: (bytes: Uint8Array) => {
        const d = decodeFrame(bytes);
        if (d.ok) written.push({ ...d.frame, payload: d.frame.payload.slice() });
      },
      buffered: () => s.buffered,
      close: () => void (s.closed = true),
    },
  };
}

const control = (kind: FrameKind, streamId: number, seq = 0, timestamp = 0, payload = new Uint8Array()) => encodeFrame({ kind, streamId, seq, timestamp, payload });
const media = (written: MediaFrame[]) => written.filter((f) => f.kind === FrameKind.Data || f.kind === FrameKind.Audio);

let now = 0;
afterEach(() => {
  vi.useRealTimers();
  now = 0;
});

describe('FrameRouter', () => {
  it('sends a stream only to channels subscribed to it, numbering its frames', () => {
    vi.useFakeTimers();
    const router = new FrameRouter({ now: () => now, log: () => {} });
    const a = sink();
    const b = sink();
    const ha = router.addChannel('a', a.sink);
    router.addChannel('b', b.sink);
    const stream = router.allocateStream();
    ha.receive(control(FrameKind.Subscribe, stream));
    router.send(stream, FrameKind.Audio, new Uint8Array([1]));
    router.send(stream, FrameKind.Audio, new Uint8Array([2]));
    expect(media(a.s.written).map((f) => [f.streamId, f.seq, f.payload[0]])).toEqual([[stream, 0, 1], [stream, 1, 2]]);
    expect(media(b.s.written)).toEqual([]);
    expect(router.subscribers(stream)).toBe(1);
    ha.receive(control(FrameKind.Unsubscribe, stream));
    router.send(stream, FrameKind.Audio, new Uint8Array([3]));
    expect(media(a.s.written)).toHaveLength(2);
    router.dispose();
  });

  it('holds frames while a channel is full, dropping the oldest past its bound, counted', async () => {
    vi.useFakeTimers();
    const router = new FrameRouter({ now: () => now, log: () => {}, queue: { maxFrames: 2, maxAgeMs: 1000 }, highWaterBytes: 10 });
    const a = sink();
    const h = router.addChannel('a', a.sink);
    const stream = router.allocateStream();
    h.receive(control(FrameKind.Subscribe, stream));
    a.s.buffered = 100;
    for (let i = 0; i < 5; i++) router.send(stream, FrameKind.Audio, new Uint8Array([i]));
    expect(media(a.s.written)).toEqual([]);
    a.s.buffered = 0;
    await vi.advanceTimersByTimeAsync(5);
    expect(media(a.s.written).map((f) => f.payload[0])).toEqual([3, 4]);
    expect(router.stats()[0].queue).toMatchObject({ droppedFull: 3, taken: 2 });
    router.dispose();
  });

  it('answers pings, learns the page clock from pongs, and hands inputs frames with their age', () => {
    vi.useFakeTimers();
    const log = vi.fn();
    const router = new FrameRouter({ now: () => now, log });
    const a = sink();
    const h = router.addChannel('a', a.sink);
    now = 100;
    h.receive(control(FrameKind.Ping, 0, 3, 40));
    const pong = a.s.written.find((f) => f.kind === FrameKind.Pong)!;
    expect(pong.seq).toBe(3);
    expect(decodePong(pong.payload)).toEqual([40, 100, 100]);

    // The page's clock is 1000 ms behind ours: t0=200 ours, page got it at -798, sent at -798, back at 204.
    now = 204;
    h.receive(encodeFrame({ kind: FrameKind.Pong, streamId: 0, seq: 0, timestamp: 0, payload: encodePong(200, -798, -798) }));
    expect(router.stats()[0].clock).toMatchObject({ offset: -1000, rtt: 4 });

    const got: Array<[number, number | undefined]> = [];
    const stream = router.allocateStream();
    const input = router.setInput(stream, (f, info) => got.push([f.seq, info.ageMs]));
    now = 300;
    h.receive(encodeFrame({ kind: FrameKind.Audio, streamId: stream, seq: 0, timestamp: 300 - 1000 - 25, payload: new Uint8Array(2) }));
    h.receive(encodeFrame({ kind: FrameKind.Audio, streamId: stream, seq: 2, timestamp: 300 - 1000, payload: new Uint8Array(2) }));
    h.receive(encodeFrame({ kind: FrameKind.Audio, streamId: stream, seq: 1, timestamp: 300 - 1000, payload: new Uint8Array(2) }));
    expect(got).toEqual([[0, 25], [2, 0]]);
    expect(input.stats()).toMatchObject({ delivered: 2, gaps: 1, missing: 1, outOfOrder: 1 });

    h.receive(new Uint8Array([9, 9]));
    h.receive(new Uint8Array([9, 9]));
    expect(router.stats()[0].malformed).toBe(2);
    expect(log).toHaveBeenCalledTimes(1);
    router.release(stream);
    h.receive(encodeFrame({ kind: FrameKind.Audio, streamId: stream, seq: 3, timestamp: 0, payload: new Uint8Array(2) }));
    expect(got).toHaveLength(2);
    router.dispose();
    expect(a.s.closed).toBe(true);
  });

  it('numbers each channel apart on an input: a reloaded page (a new channel from seq 0) is not taken for late frames', () => {
    const router = new FrameRouter({ now: () => now, log: () => {} });
    const got: number[] = [];
    const stream = router.allocateStream();
    const input = router.setInput(stream, (frame) => got.push(frame.payload[0]));
    const data = (seq: number, v: number) => encodeFrame({ kind: FrameKind.Data, streamId: stream, seq, timestamp: 0, payload: new Uint8Array([v]) });
    const before = router.addChannel('before', sink().sink);
    for (let i = 0; i < 3; i++) before.receive(data(i, i));
    before.close();
    const after = router.addChannel('after', sink().sink);
    for (let i = 0; i < 3; i++) after.receive(data(i, 10 + i));
    after.receive(data(1, 99)); // a repeat on the same channel is still refused
    expect(got).toEqual([0, 1, 2, 10, 11, 12]);
    expect(input.stats()).toMatchObject({ received: 7, delivered: 6, outOfOrder: 1, gaps: 0 });
    router.dispose();
  });
});
