/**
 * Fundamental frequency by autocorrelation: the median pitch of the voiced frames of a signal.
 * Used to derive a custom voice from its reference clip (and by tests to tell voices apart).
 */

/** Median F0 in Hz over voiced 40 ms frames (60-400 Hz), or null when nothing is voiced. */
export function medianPitch(input: Float32Array, inputRate: number): number | null {
  // Work at about 8 kHz (box-filtered decimation): plenty for 60-400 Hz, and ~20x cheaper at 48 kHz.
  const factor = Math.max(1, Math.floor(inputRate / 8000));
  const sampleRate = inputRate / factor;
  const samples = new Float32Array(Math.floor(input.length / factor));
  for (let i = 0; i < samples.length; i++) {
    let sum = 0;
    for (let k = 0; k < factor; k++) sum += input[i * factor + k];
    samples[i] = sum / factor;
  }
  const frame = Math.round(sampleRate * 0.04);
  const hop = Math.round(sampleRate * 0.02);
  const minLag = Math.floor(sampleRate / 400);
  const maxLag = Math.ceil(sampleRate / 60);
  const found: number[] = [];
  // Keep the work bounded on long clips: at most ~600 frames, spread over the clip.
  const frames = Math.max(0, Math.floor((samples.length - frame - maxLag) / hop));
  const step = Math.max(1, Math.floor(frames / 600));
  for (let f = 0; f < frames; f += step) {
    const start = f * hop;
    let energy = 0;
    for (let i = 0; i < frame; i++) energy += samples[start + i] * samples[start + i];
    if (energy / frame < 1e-4) continue;
    let best = 0;
    let bestLag = 0;
    for (let lag = minLag; lag <= maxLag; lag++) {
      let sum = 0;
      let norm = 0;
      for (let i = 0; i < frame; i++) {
        sum += samples[start + i] * samples[start + i + lag];
        norm += samples[start + i + lag] * samples[start + i + lag];
      }
      const r = sum / Math.sqrt(energy * norm + 1e-12);
      if (r > best) {
        best = r;
        bestLag = lag;
      }
    }
    // A clearly periodic frame only.
    if (best > 0.6 && bestLag > 0) found.push(sampleRate / bestLag);
  }
  if (found.length === 0) return null;
  found.sort((a, b) => a - b);
  return found[Math.floor(found.length / 2)];
}
