/**
 * A streaming sample-rate converter that keeps its state between pushes, so 20 ms frames
 * converted one by one join up exactly as if the whole signal had been converted at once (no
 * click at frame edges, no drift: positions are kept as integers, not accumulated floats).
 *
 * Band-limited interpolation with a Kaiser-windowed sinc: output sample n sits at input time
 * n·from/to and is the weighted sum of the input around it. When the rate goes down the cut-off
 * moves down with it, so what the lower rate cannot carry is filtered out rather than folded
 * back as aliasing. For the service's rates from/to reduce to at most 160 phases, so every
 * coefficient is computed once up front.
 *
 * Output is aligned with input time 0 (the filter's delay is not added to the signal), so
 * an output of `Math.ceil(inputFrames · to / from)` frames after flush() lines up with the input.
 * While streaming, each push returns the frames whose inputs have all arrived: about
 * ZERO_CROSSINGS output frames lag behind until flush().
 */
import { clampInt16 } from './pcm';

/** Sinc zero crossings each side of the centre, at the lower of the two rates. */
const ZERO_CROSSINGS = 16;
/** Kaiser window shape: ~-90 dB side lobes. */
const KAISER_BETA = 8.6;
/** Pass band edge as a fraction of the lower Nyquist frequency. */
const CUTOFF = 0.95;
/** Above this many phases coefficients are computed per sample instead of tabulated. */
const MAX_TABLE_PHASES = 4096;

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** Zeroth-order modified Bessel function of the first kind (for the Kaiser window). */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  const half = x / 2;
  for (let k = 1; k < 50; k++) {
    term *= (half / k) * (half / k);
    sum += term;
    if (term < sum * 1e-12) break;
  }
  return sum;
}

export class Resampler {
  readonly fromRate: number;
  readonly toRate: number;
  readonly channels: number;
  /** Output step in input samples is step / phases (from / to reduced). */
  private readonly phases: number;
  private readonly step: number;
  /** Taps each side of the output position, in input samples. */
  private readonly half: number;
  private readonly scale: number;
  private readonly i0Beta = besselI0(KAISER_BETA);
  private readonly table: Float32Array | null;
  /** Per channel, input samples from absolute index `bufferStart` on. Starts with `half` zeros of history. */
  private buffer: Float32Array[];
  private bufferStart: number;
  private bufferLength = 0;
  /** Next output sample's position: input index `base` plus `phase / phases`. */
  private base = 0;
  private phase = 0;
  private inputFrames = 0;
  private outputFrames = 0;
  private flushed = false;

  constructor(fromRate: number, toRate: number, channels = 1) {
    for (const [name, rate] of [['fromRate', fromRate], ['toRate', toRate]] as const) {
      if (!Number.isInteger(rate) || rate <= 0) throw new RangeError(`${name} must be a positive integer, got ${rate}`);
    }
    if (!Number.isInteger(channels) || channels < 1) throw new RangeError(`channels must be a positive integer, got ${channels}`);
    this.fromRate = fromRate;
    this.toRate = toRate;
    this.channels = channels;
    const g = gcd(fromRate, toRate);
    this.phases = toRate / g;
    this.step = fromRate / g;
    this.scale = Math.min(1, toRate / fromRate) * CUTOFF;
    this.half = Math.ceil(ZERO_CROSSINGS / this.scale);
    this.bufferStart = -this.half;
    this.buffer = Array.from({ length: channels }, () => new Float32Array(4096));
    this.bufferLength = this.half; // the zeros before time 0
    this.table = fromRate === toRate || this.phases > MAX_TABLE_PHASES ? null : this.buildTable();
  }

  /** Interleaved PCM16 in, interleaved PCM16 out (as many frames as can be finished now). */
  push(samples: Int16Array): Int16Array {
    // Straight into the history buffer (no float copy of the input): a call's microphone pushes 50 times a second.
    this.check(samples.length);
    if (this.fromRate === this.toRate) {
      this.inputFrames += samples.length / this.channels;
      this.outputFrames = this.inputFrames;
      return samples.slice();
    }
    this.append(samples, 1 / 32768);
    return toInt16(this.produce(this.bufferStart + this.bufferLength));
  }

  /** Interleaved float samples in, interleaved float samples out. */
  pushFloat(samples: Float32Array): Float32Array {
    this.check(samples.length);
    if (this.fromRate === this.toRate) {
      this.inputFrames += samples.length / this.channels;
      this.outputFrames = this.inputFrames;
      return samples.slice();
    }
    this.append(samples);
    return this.produce(this.bufferStart + this.bufferLength);
  }

  /** Ends the stream: the last frames, computed with silence after the input. */
  flush(): Int16Array {
    return toInt16(this.flushFloat());
  }

  flushFloat(): Float32Array {
    if (this.flushed || this.fromRate === this.toRate) {
      this.flushed = true;
      return new Float32Array(0);
    }
    this.flushed = true;
    const total = Math.ceil((this.inputFrames * this.phases) / this.step);
    this.append(new Float32Array((this.half + 1) * this.channels));
    return this.produce(Number.POSITIVE_INFINITY, total);
  }

  private check(length: number): void {
    if (this.flushed) throw new Error('Resampler: push after flush(); create a new one for a new stream');
    if (length % this.channels !== 0) throw new RangeError(`${length} samples are not whole ${this.channels}-channel frames`);
  }

  /** Frames taken in and given out so far (for timestamps: output frame n is at n / toRate s). */
  get counts(): { input: number; output: number } {
    return { input: this.inputFrames, output: this.outputFrames };
  }

  /** Appends interleaved samples, each times `scale` (PCM16 in: 1/32768). */
  private append(samples: Float32Array | Int16Array, scale = 1): void {
    const frames = samples.length / this.channels;
    // Drop history no output can need any more: everything before base - half + 1.
    const keepFrom = this.base - this.half + 1;
    const drop = Math.max(0, Math.min(this.bufferLength, keepFrom - this.bufferStart));
    const needed = this.bufferLength - drop + frames;
    for (let c = 0; c < this.channels; c++) {
      let buf = this.buffer[c];
      if (drop > 0) buf.copyWithin(0, drop, this.bufferLength);
      if (needed > buf.length) {
        const grown = new Float32Array(Math.max(needed, buf.length * 2));
        grown.set(buf.subarray(0, this.bufferLength - drop));
        buf = grown;
        this.buffer[c] = buf;
      }
      const at = this.bufferLength - drop;
      for (let i = 0; i < frames; i++) buf[at + i] = samples[i * this.channels + c]! * scale;
    }
    this.bufferStart += drop;
    this.bufferLength = needed;
    // Zeros appended by flush are not input.
    if (!this.flushed) this.inputFrames += frames;
  }

  /** Computes outputs while their last tap is below `availableEnd` (and, on flush, up to `limit` outputs). */
  private produce(availableEnd: number, limit = Number.POSITIVE_INFINITY): Float32Array {
    const end = Math.min(availableEnd, this.bufferStart + this.bufferLength);
    // Sized for every output the buffered input allows (the loop stops at the same bound): no
    // growing number[] of samples per push (a 100 ms answer delta at 48 kHz is 4800 of them).
    const most = Math.max(0, Math.min(limit - this.outputFrames, Math.ceil(((end - this.half - this.base) * this.phases - this.phase) / this.step) + 1));
    const out = new Float32Array(most * this.channels);
    let n = 0;
    // The state in locals for the loop (written back after): it runs 48 000 times a second of playback.
    const { half, phases, step, channels, table, bufferStart, buffer } = this;
    const taps = half * 2;
    let { base, phase, outputFrames } = this;
    while (outputFrames < limit && base + half < end) {
      const first = base - half + 1 - bufferStart;
      // The table read in place (a subarray per output sample was 48 000 objects a second of playback).
      const coeffs = table ?? this.kernel(phase / phases);
      const at = table ? phase * taps : 0;
      for (let c = 0; c < channels; c++) {
        const buf = buffer[c]!;
        let sum = 0;
        for (let j = 0; j < taps; j++) sum += buf[first + j]! * coeffs[at + j]!;
        out[n++] = sum;
      }
      outputFrames++;
      phase += step;
      if (phase >= phases) {
        base += Math.floor(phase / phases);
        phase %= phases;
      }
    }
    this.base = base;
    this.phase = phase;
    this.outputFrames = outputFrames;
    return n === out.length ? out : out.subarray(0, n);
  }

  private buildTable(): Float32Array {
    const taps = this.half * 2;
    const table = new Float32Array(this.phases * taps);
    for (let p = 0; p < this.phases; p++) table.set(this.kernel(p / this.phases), p * taps);
    return table;
  }

  /** Taps for an output at fraction `frac` past input `base`: inputs base-half+1 … base+half. */
  private kernel(frac: number): Float32Array {
    const taps = this.half * 2;
    const out = new Float32Array(taps);
    let sum = 0;
    for (let j = 0; j < taps; j++) {
      const d = j - this.half + 1 - frac; // distance from the output position, in input samples
      const x = d * this.scale;
      const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
      const r = d / this.half;
      const window = Math.abs(r) >= 1 ? 0 : besselI0(KAISER_BETA * Math.sqrt(1 - r * r)) / this.i0Beta;
      out[j] = sinc * window;
      sum += out[j];
    }
    // Unity gain at DC for every phase, so a constant stays constant (no ripple at the phase rate).
    for (let j = 0; j < taps; j++) out[j] /= sum;
    return out;
  }
}

function toInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = clampInt16(samples[i] * 32768);
  return out;
}
