/**
 * Signal levels for meters: RMS and peak as fractions of full scale and in dBFS, and a meter that
 * reports them once per window of samples (50 ms: about 20 times a second when fed in real time).
 * The meter is driven by the samples, not by a clock, so it reports the same values however the
 * frames happen to arrive.
 */

/** The floor reported for silence, so levels stay finite numbers (JSON has no -Infinity). */
export const MIN_DBFS = -100;
export const LEVEL_INTERVAL_MS = 50;

export interface Level {
  /** Root mean square, 0 to 1 of full scale. */
  rms: number;
  /** Largest absolute sample, 0 to 1 of full scale. */
  peak: number;
  rmsDbfs: number;
  peakDbfs: number;
}

/** A fraction of full scale in dBFS, floored at MIN_DBFS. */
export function toDbfs(amplitude: number): number {
  if (!(amplitude > 0)) return MIN_DBFS;
  return Math.max(MIN_DBFS, 20 * Math.log10(amplitude));
}

/** Level of PCM16 samples (all channels together). A full-scale square wave reads 0 dBFS. */
export function measureLevel(samples: Int16Array): Level {
  let sumSquares = 0;
  let peak = 0;
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i];
    sumSquares += s * s;
    const abs = s < 0 ? -s : s;
    if (abs > peak) peak = abs;
  }
  return levelOf(sumSquares, peak, samples.length);
}

function levelOf(sumSquares: number, peakSample: number, count: number): Level {
  const rms = count === 0 ? 0 : Math.min(1, Math.sqrt(sumSquares / count) / 32768);
  const peak = Math.min(1, peakSample / 32768);
  return { rms, peak, rmsDbfs: toDbfs(rms), peakDbfs: toDbfs(peak) };
}

export class LevelMeter {
  /** Interleaved samples per report. */
  readonly windowLength: number;
  private sumSquares = 0;
  private peak = 0;
  private count = 0;

  /** `onLevel` is called once per `intervalMs` of audio pushed. */
  constructor(
    sampleRate: number,
    channels: number,
    private readonly onLevel: (level: Level) => void,
    intervalMs = LEVEL_INTERVAL_MS,
  ) {
    this.windowLength = Math.max(1, Math.round((sampleRate * intervalMs) / 1000)) * channels;
  }

  push(samples: Int16Array): void {
    for (let i = 0; i < samples.length; i++) {
      const s = samples[i];
      this.sumSquares += s * s;
      const abs = s < 0 ? -s : s;
      if (abs > this.peak) this.peak = abs;
      if (++this.count === this.windowLength) {
        const level = levelOf(this.sumSquares, this.peak, this.count);
        this.sumSquares = 0;
        this.peak = 0;
        this.count = 0;
        this.onLevel(level);
      }
    }
  }

  /** Forgets a partial window (after a pause or a device change). */
  reset(): void {
    this.sumSquares = 0;
    this.peak = 0;
    this.count = 0;
  }
}
