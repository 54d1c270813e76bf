/**
 * A call's recording as one stereo WAV: the microphone (the track that went out to the service)
 * on the left, the model (the track that came in) on the right, lined up by where each track
 * starts on the session clock. Both are read from their finalised WAV blobs a block at a time and
 * written through the blob store as a stream, so a 30-minute call is never in memory. Tracks at
 * different rates are brought to the higher one by the kept resampler (shared/audio); a
 * multi-channel track is folded to mono.
 */
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { BlobInfo, BlobStore } from '../../store/blobs';
import { Resampler, wavHeader } from '../../../shared/audio';

/** Track blobs are canonical WAVs written by the store: the samples start after 44 bytes. */
const WAV_HEADER_BYTES = 44;

/** A finalised track: its WAV blob and where it starts on the session clock. */
export interface MixInput {
  hash: string;
  sampleRate: number;
  channels: number;
  frames: number;
  startMs: number;
}

export interface StereoMix extends BlobInfo {
  sampleRate: number;
  frames: number;
  /** Where the mix's first frame sits on the session clock. */
  startMs: number;
}

/** Output frames per block, and source frames per read. */
const BLOCK = 8192;
const READ_FRAMES = 8192;

/** Writes the stereo WAV of `left` and `right` (either may be missing: silence on that side). */
export async function writeStereoMix(blobs: BlobStore, left: MixInput | null, right: MixInput | null): Promise<StereoMix> {
  const inputs = [left, right].filter((i): i is MixInput => i !== null);
  if (inputs.length === 0) throw new Error('a stereo mix needs at least one track');
  const rate = Math.max(...inputs.map((i) => i.sampleRate));
  const startMs = Math.min(...inputs.map((i) => i.startMs));
  const sides = [left, right].map((input) => (input ? new SideReader(blobs.pathOf(input.hash), input, rate, startMs) : null));
  const frames = Math.max(...sides.map((s) => s?.endFrame ?? 0));
  try {
    const blob = await blobs.put(Readable.from(mixChunks(sides, frames, rate)));
    return { ...blob, sampleRate: rate, frames, startMs };
  } finally {
    await Promise.all(sides.map((s) => s?.close()));
  }
}

async function* mixChunks(sides: Array<SideReader | null>, frames: number, rate: number): AsyncGenerator<Buffer> {
  yield Buffer.from(wavHeader({ sampleRate: rate, channels: 2, dataBytes: frames * 4 }));
  for (let at = 0; at < frames; at += BLOCK) {
    const n = Math.min(BLOCK, frames - at);
    const out = Buffer.alloc(n * 4);
    for (let side = 0; side < 2; side++) {
      const reader = sides[side];
      if (!reader) continue;
      const samples = await reader.block(at, n);
      for (let i = 0; i < n; i++) out.writeInt16LE(samples[i], i * 4 + side * 2);
    }
    yield out;
  }
}

/**
 * One side of the mix, read in order: silence until the track starts, then its samples folded to
 * mono and brought to the output rate by the kept resampler (a track at the output rate passes
 * through untouched), then silence.
 */
class SideReader {
  /** Output frames of silence before the track's first sample. */
  private readonly lead: number;
  readonly endFrame: number;
  private readonly resampler: Resampler;
  private handle: Awaited<ReturnType<typeof open>> | null = null;
  /** Output frames made and not yet taken. */
  private queue: Int16Array[] = [];
  private queued = 0;
  private produced = 0;
  private readFrames = 0;
  private flushed = false;

  constructor(
    private readonly path: string,
    private readonly input: MixInput,
    rate: number,
    startMs: number,
  ) {
    this.lead = Math.round(((input.startMs - startMs) * rate) / 1000);
    this.endFrame = this.lead + Math.ceil((input.frames * rate) / input.sampleRate);
    this.resampler = new Resampler(input.sampleRate, rate, 1);
  }

  /** Output frames `at .. at+n` of this side; called with consecutive ranges. */
  async block(at: number, n: number): Promise<Int16Array> {
    const out = new Int16Array(n);
    const from = Math.max(at, this.lead);
    const to = Math.min(at + n, this.endFrame);
    if (to <= from) return out;
    const wanted = to - from;
    while (this.queued < wanted && !this.flushed) await this.produce();
    let filled = 0;
    while (filled < wanted && this.queue.length > 0) {
      const head = this.queue[0];
      const take = Math.min(head.length, wanted - filled);
      out.set(head.subarray(0, take), from - at + filled);
      filled += take;
      this.queued -= take;
      if (take === head.length) this.queue.shift();
      else this.queue[0] = head.subarray(take);
    }
    return out;
  }

  /** Reads the next source block through the resampler (or flushes it at the end). */
  private async produce(): Promise<void> {
    const left = this.input.frames - this.readFrames;
    let made: Int16Array;
    if (left <= 0) {
      made = this.resampler.flush();
      this.flushed = true;
    } else {
      const count = Math.min(READ_FRAMES, left);
      made = this.resampler.push(await this.read(this.readFrames, count));
      this.readFrames += count;
    }
    // Never more than the track's length at the output rate (the filter's tail is silence anyway).
    const room = this.endFrame - this.lead - this.produced;
    if (made.length > room) made = made.subarray(0, Math.max(0, room));
    this.produced += made.length;
    if (made.length > 0) {
      this.queue.push(made);
      this.queued += made.length;
    }
  }

  /** Source frames `from .. from+count`, folded to mono. */
  private async read(from: number, count: number): Promise<Int16Array> {
    this.handle ??= await open(this.path, 'r');
    const channels = this.input.channels;
    const bytes = Buffer.alloc(count * channels * 2);
    const { bytesRead } = await this.handle.read(bytes, 0, bytes.length, WAV_HEADER_BYTES + from * channels * 2);
    const mono = new Int16Array(count);
    for (let f = 0; f < Math.floor(bytesRead / (channels * 2)); f++) {
      let sum = 0;
      for (let c = 0; c < channels; c++) sum += bytes.readInt16LE((f * channels + c) * 2);
      mono[f] = Math.round(sum / channels);
    }
    return mono;
  }

  async close(): Promise<void> {
    await this.handle?.close();
    this.handle = null;
  }
}
