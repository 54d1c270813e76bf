/**
 * The playback side's jitter buffer: audio arrives in bursts (a socket's deltas), the device
 * takes it at a steady rate. It holds back the start of playback until `targetDepthMs` is
 * buffered (or the sender said the audio ended), pads with silence when it runs dry, counts
 * each time it ran dry mid-stream (an underrun) and rebuffers to the target before going on.
 * `flush()` drops everything not yet read, for barge-in.
 *
 * Pure: both native playback (main/audio) and the page's AudioWorklet use it.
 */

export type JitterState = 'idle' | 'buffering' | 'playing';

export interface JitterRead {
  /** Exactly the frames asked for (interleaved): audio first, then silence if it ran short. */
  pcm: Int16Array;
  /** How many of those frames are audio (not padding). */
  contentFrames: number;
}

export interface JitterStats {
  state: JitterState;
  bufferedFrames: number;
  underruns: number;
  /** Audio frames handed out by read() since creation. */
  contentFramesRead: number;
  /** Audio frames dropped by flush() since creation. */
  framesFlushed: number;
}

export class JitterBuffer {
  readonly sampleRate: number;
  readonly channels: number;
  readonly targetFrames: number;
  private chunks: Int16Array[] = [];
  /** Read position in chunks[0], in samples. */
  private offset = 0;
  private buffered = 0;
  private state: JitterState = 'idle';
  private ended = false;
  private underruns = 0;
  private contentFramesRead = 0;
  private framesFlushed = 0;

  constructor(sampleRate: number, channels: number, targetDepthMs = 60) {
    this.sampleRate = sampleRate;
    this.channels = channels;
    this.targetFrames = Math.round((sampleRate * targetDepthMs) / 1000);
  }

  /** Adds interleaved audio (after end(), more audio means the stream goes on). */
  push(pcm: Int16Array): void {
    if (pcm.length % this.channels !== 0) throw new RangeError(`${pcm.length} samples are not whole ${this.channels}-channel frames`);
    if (pcm.length === 0) return;
    this.ended = false;
    this.chunks.push(pcm);
    this.buffered += pcm.length / this.channels;
    if (this.state === 'idle') this.state = 'buffering';
    this.maybeStart();
  }

  /** The sender finished this stretch: play out what is buffered, even below the target, without counting an underrun. */
  end(): void {
    this.ended = true;
    this.maybeStart();
  }

  /** Takes `frames` frames for the device. */
  read(frames: number): JitterRead {
    const pcm = new Int16Array(frames * this.channels);
    if (this.state !== 'playing') return { pcm, contentFrames: 0 };
    let filled = 0; // samples
    const want = pcm.length;
    while (filled < want && this.chunks.length > 0) {
      const chunk = this.chunks[0];
      const take = Math.min(want - filled, chunk.length - this.offset);
      pcm.set(chunk.subarray(this.offset, this.offset + take), filled);
      filled += take;
      this.offset += take;
      if (this.offset === chunk.length) {
        this.chunks.shift();
        this.offset = 0;
      }
    }
    const contentFrames = filled / this.channels;
    this.buffered -= contentFrames;
    this.contentFramesRead += contentFrames;
    if (this.buffered === 0) {
      if (this.ended) {
        this.state = 'idle';
      } else {
        // Ran dry with more to come: an underrun (also when it ran dry exactly at the end of a read and the next read finds nothing).
        if (contentFrames < frames) this.underruns++;
        this.state = contentFrames < frames ? 'buffering' : 'playing';
      }
    }
    return { pcm, contentFrames };
  }

  /** Drops all buffered audio at once; returns how many frames were dropped. */
  flush(): number {
    const dropped = this.buffered;
    this.chunks = [];
    this.offset = 0;
    this.buffered = 0;
    this.framesFlushed += dropped;
    this.state = 'idle';
    this.ended = false;
    return dropped;
  }

  get stats(): JitterStats {
    return {
      state: this.state,
      bufferedFrames: this.buffered,
      underruns: this.underruns,
      contentFramesRead: this.contentFramesRead,
      framesFlushed: this.framesFlushed,
    };
  }

  private maybeStart(): void {
    if (this.state === 'buffering' && (this.buffered >= this.targetFrames || (this.ended && this.buffered > 0))) this.state = 'playing';
  }
}
