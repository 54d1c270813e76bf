import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFrame, encodeFrame, FRAME_HEADER_BYTES, FrameKind, nextSeq, seqDistance, type MediaFrame } from '../../../../shared/media-frames';

const frames = fc.record({
  kind: fc.constantFrom(...Object.values(FrameKind)),
  streamId: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
  seq: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
  timestamp: fc.double({ noNaN: true, noDefaultInfinity: true }),
  payload: fc.uint8Array({ maxLength: 2048 }),
});

describe('media frame codec', () => {
  it('round-trips every field and the payload', () => {
    fc.assert(
      fc.property(frames, (frame) => {
        const bytes = encodeFrame(frame as MediaFrame);
        expect(bytes.byteLength).toBe(FRAME_HEADER_BYTES + frame.payload.byteLength);
        const back = decodeFrame(bytes);
        expect(back.ok).toBe(true);
        if (!back.ok) return;
        expect({ ...back.frame, payload: [...back.frame.payload] }).toEqual({ ...frame, timestamp: Object.is(frame.timestamp, -0) ? -0 : frame.timestamp, payload: [...frame.payload] });
      }),
    );
  });

  it('decodes a frame inside a larger buffer (a view at an offset)', () => {
    const bytes = encodeFrame({ kind: FrameKind.Audio, streamId: 7, seq: 9, timestamp: 1234.5, payload: new Uint8Array([1, 2, 3]) });
    const padded = new Uint8Array(bytes.byteLength + 5);
    padded.set(bytes, 5);
    const back = decodeFrame(padded.subarray(5));
    expect(back.ok && [back.frame.streamId, back.frame.seq, back.frame.timestamp, [...back.frame.payload]]).toEqual([7, 9, 1234.5, [1, 2, 3]]);
  });

  it('answers malformed bytes with a message, never a throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const r = decodeFrame(bytes);
        if (!r.ok) expect(r.message.length).toBeGreaterThan(0);
      }),
    );
    expect(decodeFrame(new Uint8Array(3))).toMatchObject({ ok: false, message: expect.stringContaining('at least 20') });
    const bad = encodeFrame({ kind: FrameKind.Data, streamId: 1, seq: 1, timestamp: 1, payload: new Uint8Array() });
    bad[0] = 9;
    expect(decodeFrame(bad)).toMatchObject({ ok: false, message: expect.stringContaining('version 9') });
    bad[0] = 1;
    bad[1] = 77;
    expect(decodeFrame(bad)).toMatchObject({ ok: false, message: expect.stringContaining('kind 77') });
  });

  it('refuses to encode values no receiver could read', () => {
    const base = { kind: FrameKind.Audio, streamId: 1, seq: 1, timestamp: 1, payload: new Uint8Array() } as MediaFrame;
    expect(() => encodeFrame({ ...base, seq: 2 ** 32 })).toThrow(/sequence/);
    expect(() => encodeFrame({ ...base, streamId: -1 })).toThrow(/stream id/);
    expect(() => encodeFrame({ ...base, timestamp: Number.NaN })).toThrow(/timestamp/);
  });

  it('compares sequence numbers across the 2^32 wrap', () => {
    expect(nextSeq(2 ** 32 - 1)).toBe(0);
    expect(seqDistance(0, 2 ** 32 - 1)).toBe(1);
    expect(seqDistance(2 ** 32 - 1, 0)).toBe(-1);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: -1000, max: 1000 }), (base, d) => {
        const seq = (((base + d) % 2 ** 32) + 2 ** 32) % 2 ** 32;
        expect(seqDistance(seq, base)).toBe(d);
      }),
    );
  });
});
