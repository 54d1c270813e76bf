/**
 * The real-time media frame: one binary message, the same bytes on every path (the browser-mode
 * WebSocket's binary frames, an Electron MessagePort, a test's socket).
 *
 *   offset 0  u8   version (FRAME_VERSION)
 *          1  u8   kind (FrameKind)
 *          2  u16  reserved, 0
 *          4  u32  stream id (a media session's stream; 0 for the channel itself: pings)
 *          8  u32  sequence number, per stream and direction, wrapping at 2^32
 *         12  f64  timestamp: the sender's monotonic clock in ms (see clock.ts) when it was made
 *         20  ...  payload (PCM, an encoded packet, a clock sample)
 *
 * All big-endian. A fixed header instead of JSON: a 20 ms frame of 16 kHz PCM is 640 bytes, and
 * parsing a header must cost nothing on the audio path.
 */

export const FRAME_VERSION = 1;
export const FRAME_HEADER_BYTES = 20;
/** Largest payload a frame may carry (1 s of 48 kHz stereo f32 is 384 KiB; frames are far smaller). */
export const MAX_FRAME_PAYLOAD_BYTES = 512 * 1024;

export const FrameKind = {
  /** Audio samples or packets of a stream. */
  Audio: 1,
  /** Any other timed media bytes (a synthetic source, video later). */
  Data: 2,
  /** Clock sample request: payload empty, timestamp = sender's send time. */
  Ping: 3,
  /** Clock sample answer: payload = [ping's timestamp, receive time, send time] as 3 × f64. */
  Pong: 4,
  /** The receiver asks for a stream's frames (channel control, payload empty). */
  Subscribe: 5,
  /** The receiver no longer wants a stream's frames. */
  Unsubscribe: 6,
} as const;
export type FrameKind = (typeof FrameKind)[keyof typeof FrameKind];

const KINDS = new Set<number>(Object.values(FrameKind));

export interface MediaFrame {
  kind: FrameKind;
  streamId: number;
  seq: number;
  /** ms on the sender's monotonic clock. */
  timestamp: number;
  payload: Uint8Array;
}

export type FrameDecode = { ok: true; frame: MediaFrame } | { ok: false; message: string };

const U32 = 0x1_0000_0000;

function isU32(n: number): boolean {
  return Number.isInteger(n) && n >= 0 && n < U32;
}

/** Encodes `frame`; throws on a value no receiver could read (a programming error, not load). */
export function encodeFrame(frame: MediaFrame): Uint8Array {
  if (!KINDS.has(frame.kind)) throw new RangeError(`Unknown media frame kind ${frame.kind}.`);
  if (!isU32(frame.streamId)) throw new RangeError('A media frame stream id is a whole number from 0 to 2^32-1.');
  if (!isU32(frame.seq)) throw new RangeError('A media frame sequence number is a whole number from 0 to 2^32-1.');
  if (!Number.isFinite(frame.timestamp)) throw new RangeError('A media frame timestamp must be a finite number of ms.');
  if (frame.payload.byteLength > MAX_FRAME_PAYLOAD_BYTES) throw new RangeError(`A media frame payload is at most ${MAX_FRAME_PAYLOAD_BYTES} bytes.`);
  const out = new Uint8Array(FRAME_HEADER_BYTES + frame.payload.byteLength);
  const view = new DataView(out.buffer);
  view.setUint8(0, FRAME_VERSION);
  view.setUint8(1, frame.kind);
  view.setUint16(2, 0);
  view.setUint32(4, frame.streamId);
  view.setUint32(8, frame.seq);
  view.setFloat64(12, frame.timestamp);
  out.set(frame.payload, FRAME_HEADER_BYTES);
  return out;
}

/** Decodes one frame; the payload is a view into `bytes` (no copy). Malformed input is a value, never a throw. */
export function decodeFrame(bytes: Uint8Array): FrameDecode {
  if (bytes.byteLength < FRAME_HEADER_BYTES) return { ok: false, message: `A media frame is at least ${FRAME_HEADER_BYTES} bytes; got ${bytes.byteLength}.` };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint8(0);
  if (version !== FRAME_VERSION) return { ok: false, message: `Unknown media frame version ${version} (this build reads ${FRAME_VERSION}).` };
  const kind = view.getUint8(1);
  if (!KINDS.has(kind)) return { ok: false, message: `Unknown media frame kind ${kind}.` };
  const timestamp = view.getFloat64(12);
  if (!Number.isFinite(timestamp)) return { ok: false, message: 'The media frame timestamp is not a finite number.' };
  if (bytes.byteLength - FRAME_HEADER_BYTES > MAX_FRAME_PAYLOAD_BYTES) return { ok: false, message: `A media frame payload is at most ${MAX_FRAME_PAYLOAD_BYTES} bytes.` };
  return {
    ok: true,
    frame: {
      kind: kind as FrameKind,
      streamId: view.getUint32(4),
      seq: view.getUint32(8),
      timestamp,
      payload: bytes.subarray(FRAME_HEADER_BYTES),
    },
  };
}

/** The next sequence number after `seq` (wraps at 2^32). */
export function nextSeq(seq: number): number {
  return (seq + 1) % U32;
}

/**
 * How far `seq` is ahead of `expected`, modulo 2^32, as a signed distance: 0 = the expected one,
 * positive = frames were skipped, negative = an older (late or repeated) frame. Half the range
 * each way, so a wrap from 2^32-1 to 0 reads as +1.
 */
export function seqDistance(seq: number, expected: number): number {
  const d = (seq - expected + U32) % U32;
  return d >= U32 / 2 ? d - U32 : d;
}
