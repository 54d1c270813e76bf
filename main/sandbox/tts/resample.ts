/**
 * Windowed-sinc resampling of eSpeak's 22,050 Hz output to the requested rate (8-48 kHz), with the
 * low-pass at the lower of the two Nyquist frequencies so downsampling to 8 kHz does not alias.
 * A kept `Resampler` per rate pair holds its filter table. (shared/audio's resampler, when it lands,
 * can replace this one.)
 */
const ZERO_CROSSINGS = 12;
const TABLE_STEPS = 512;

export class Resampler {
  private readonly ratio: number;
  private readonly cutoff: number;
  private readonly table: Float32Array;

  constructor(readonly fromRate: number, readonly toRate: number) {
    this.ratio = fromRate / toRate;
    this.cutoff = Math.min(1, toRate / fromRate) * 0.97;
    // sinc x Blackman window, sampled finely; looked up with linear interpolation.
    this.table = new Float32Array(ZERO_CROSSINGS * TABLE_STEPS + 2);
    for (let i = 0; i < this.table.length; i++) {
      const x = i / TABLE_STEPS;
      const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
      const w = x >= ZERO_CROSSINGS ? 0 : 0.42 + 0.5 * Math.cos((Math.PI * x) / ZERO_CROSSINGS) + 0.08 * Math.cos((2 * Math.PI * x) / ZERO_CROSSINGS);
      this.table[i] = sinc * w;
    }
  }

  private kernel(distance: number): number {
    const x = Math.abs(distance * this.cutoff) * TABLE_STEPS;
    const i = Math.floor(x);
    if (i >= this.table.length - 1) return 0;
    const f = x - i;
    return this.table[i] * (1 - f) + this.table[i + 1] * f;
  }

  /** Resamples a whole block (blocks are independent: the caller resamples one utterance part at a time). */
  process(input: Float32Array): Float32Array {
    if (this.fromRate === this.toRate) return input.slice();
    const outLength = Math.round(input.length / this.ratio);
    const out = new Float32Array(outLength);
    const reach = Math.ceil(ZERO_CROSSINGS / this.cutoff);
    for (let n = 0; n < outLength; n++) {
      const center = n * this.ratio;
      const first = Math.max(0, Math.ceil(center - reach));
      const last = Math.min(input.length - 1, Math.floor(center + reach));
      let sum = 0;
      for (let k = first; k <= last; k++) sum += input[k] * this.kernel(k - center);
      out[n] = sum * this.cutoff;
    }
    return out;
  }
}

const kept = new Map<string, Resampler>();

/** The kept resampler for a rate pair. */
export function resamplerFor(fromRate: number, toRate: number): Resampler {
  const key = `${fromRate}>${toRate}`;
  let r = kept.get(key);
  if (!r) {
    r = new Resampler(fromRate, toRate);
    kept.set(key, r);
  }
  return r;
}
