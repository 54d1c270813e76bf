/**
 * The outline of streamed speech as it arrives (pure): one peak (0–1, the largest magnitude) per
 * LIVE_PEAK_SECONDS of PCM16, so the waveform grows chunk by chunk at a fixed scale (a column is
 * always the same length of audio; no rescaling as louder chunks come).
 */
export const LIVE_PEAK_SECONDS = 0.02;

export function chunkPeaks(samples: Int16Array, sampleRate: number, columnSeconds = LIVE_PEAK_SECONDS): number[] {
  const size = Math.max(1, Math.round(sampleRate * columnSeconds));
  const out: number[] = [];
  for (let from = 0; from < samples.length; from += size) {
    let peak = 0;
    const to = Math.min(samples.length, from + size);
    for (let i = from; i < to; i++) {
      const v = Math.abs(samples[i]!);
      if (v > peak) peak = v;
    }
    out.push(Math.min(1, peak / 32768));
  }
  return out;
}
