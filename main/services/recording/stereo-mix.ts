/**
 * A call's recording as one stereo WAV: the microphone (the track that went out to the service)
 * on the left, the model (the track that came in) on the right, lined up by where each track
 * starts on the session clock. Both are read from their finalised WAV blobs a block at a time and
 * written through the blob store as a stream, so a 30-minute call is never in memory. Tracks at
 * different rates are brought to the higher one (linear interpolation: this is a listening copy;
 * the tracks themselves keep the exact samples); a multi-channel track is folded to mono.
 */
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { BlobInfo, BlobStore } from '../../store/blobs';
import { pcm16WavHeader, WAV_HEADER_BYTES } from '../../store/wav-header';

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

/** Output frames per block. */
const BLOCK = 8192;

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
  yield pcm16WavHeader(rate, 2, frames * 4);
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

/** One side of the mix: mono samples at the output rate, silence before the track starts and after it ends. */
class SideReader {
  /** Output frames of silence before the track's first sample. */
  private readonly lead: number;
  private readonly ratio: number;
  readonly endFrame: number;
  private handle: Awaited<ReturnType<typeof open>> | null = null;
  /** Decoded mono source frames [bufStart, bufStart + buf.length). */
  private buf = new Float32Array(0);
  private bufStart = 0;

  constructor(
    private readonly path: string,
    private readonly input: MixInput,
    rate: number,
    startMs: number,
  ) {
    this.lead = Math.round(((input.startMs - startMs) * rate) / 1000);
    this.ratio = input.sampleRate / rate;
    this.endFrame = this.lead + Math.ceil(input.frames / this.ratio);
  }

  /** Output frames `at .. at+n` of this side. */
  async block(at: number, n: number): Promise<Int16Array> {
    const out = new Int16Array(n);
    const first = Math.max(0, (at - this.lead) * this.ratio);
    const last = (at + n - this.lead) * this.ratio + 1;
    if (last < 0 || first >= this.input.frames) return out;
    await this.load(Math.floor(first), Math.min(this.input.frames, Math.ceil(last) + 1));
    for (let i = 0; i < n; i++) {
      const p = (at + i - this.lead) * this.ratio;
      if (p < 0 || p > this.input.frames - 1) continue;
      const k = Math.floor(p);
      const frac = p - k;
      const a = this.sample(k);
      const b = frac > 0 ? this.sample(k + 1) : a;
      out[i] = Math.max(-32768, Math.min(32767, Math.round(a + (b - a) * frac)));
    }
    return out;
  }

  private sample(k: number): number {
    return this.buf[k - this.bufStart] ?? 0;
  }

  /** Makes source frames [from, to) available (reads only what is not already held). */
  private async load(from: number, to: number): Promise<void> {
    if (from >= this.bufStart && to <= this.bufStart + this.buf.length) return;
    this.handle ??= await open(this.path, 'r');
    const channels = this.input.channels;
    const count = to - from;
    const bytes = Buffer.alloc(count * channels * 2);
    const { bytesRead } = await this.handle.read(bytes, 0, bytes.length, WAV_HEADER_BYTES + from * channels * 2);
    const got = Math.floor(bytesRead / (channels * 2));
    const mono = new Float32Array(got);
    for (let f = 0; f < got; f++) {
      let sum = 0;
      for (let c = 0; c < channels; c++) sum += bytes.readInt16LE((f * channels + c) * 2);
      mono[f] = sum / channels;
    }
    this.buf = mono;
    this.bufStart = from;
  }

  async close(): Promise<void> {
    await this.handle?.close();
    this.handle = null;
  }
}
