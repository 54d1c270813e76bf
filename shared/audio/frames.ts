/**
 * Cuts a stream of PCM16 pushes of any size into frames of exactly `frameMs` (20 ms by default:
 * what the service's live sockets and the realtime console send). Keeps the remainder between
 * pushes, so no sample is lost or repeated.
 */

export const FRAME_MS = 20;

/** Frames (per channel) in `frameMs` at `sampleRate`; throws when that is not a whole number. */
export function samplesPerFrame(sampleRate: number, frameMs = FRAME_MS): number {
  const frames = (sampleRate * frameMs) / 1000;
  if (!Number.isInteger(frames) || frames <= 0) {
    throw new RangeError(`${frameMs} ms at ${sampleRate} Hz is not a whole number of samples`);
  }
  return frames;
}

export class FrameChunker {
  readonly sampleRate: number;
  readonly channels: number;
  readonly frameMs: number;
  /** Interleaved samples per frame (frames × channels). */
  readonly frameLength: number;
  private pending: Int16Array;
  private pendingLength = 0;
  private emitted = 0;

  constructor(sampleRate: number, channels = 1, frameMs = FRAME_MS) {
    if (!Number.isInteger(channels) || channels < 1) throw new RangeError(`channels must be a positive integer, got ${channels}`);
    this.sampleRate = sampleRate;
    this.channels = channels;
    this.frameMs = frameMs;
    this.frameLength = samplesPerFrame(sampleRate, frameMs) * channels;
    this.pending = new Int16Array(this.frameLength);
  }

  /** Adds samples; returns the frames completed by them (each a new array of `frameLength`). */
  push(samples: Int16Array): Int16Array[] {
    if (samples.length % this.channels !== 0) {
      throw new RangeError(`${samples.length} samples are not whole ${this.channels}-channel frames`);
    }
    const frames: Int16Array[] = [];
    let at = 0;
    while (at < samples.length) {
      const take = Math.min(this.frameLength - this.pendingLength, samples.length - at);
      this.pending.set(samples.subarray(at, at + take), this.pendingLength);
      this.pendingLength += take;
      at += take;
      if (this.pendingLength === this.frameLength) {
        frames.push(this.pending);
        this.pending = new Int16Array(this.frameLength);
        this.pendingLength = 0;
      }
    }
    this.emitted += frames.length;
    return frames;
  }

  /** Samples waiting for the next frame (interleaved count). */
  get buffered(): number {
    return this.pendingLength;
  }

  /** Frames emitted so far: frame n starts at n × frameMs of the stream. */
  get frameCount(): number {
    return this.emitted;
  }

  /** The last partial frame, padded with silence to a whole frame, or null when none waits. */
  flush(): Int16Array | null {
    if (this.pendingLength === 0) return null;
    const frame = this.pending;
    frame.fill(0, this.pendingLength);
    this.pending = new Int16Array(this.frameLength);
    this.pendingLength = 0;
    this.emitted++;
    return frame;
  }
}
