/**
 * Pitch (F0) by normalised autocorrelation on 16 kHz speech, for diarisation and the end-of-turn
 * guess: voices differ most reliably by their pitch, and a falling pitch at the end of a phrase is
 * how a statement ends. 40 ms windows, 60-400 Hz (the range of speaking voices); a window whose
 * best correlation is weak (unvoiced consonants, noise) gives no estimate.
 */
import { VAD_RATE } from './vad';

const MIN_F0 = 60;
const MAX_F0 = 400;
const MIN_LAG = Math.floor(VAD_RATE / MAX_F0);
const MAX_LAG = Math.ceil(VAD_RATE / MIN_F0);
/** Correlation a periodic (voiced) window reaches; unvoiced speech stays well below. */
const VOICED_NCCF = 0.6;
export const PITCH_WINDOW = 640;

/** F0 in Hz of a window of at least PITCH_WINDOW samples at 16 kHz, or null when it is not voiced. */
export function estimatePitch(window: Int16Array): number | null {
  const n = Math.min(window.length, PITCH_WINDOW);
  if (n < MAX_LAG * 2) return null;
  const x = new Float64Array(n);
  let mean = 0;
  for (let i = 0; i < n; i++) mean += window[i];
  mean /= n;
  for (let i = 0; i < n; i++) x[i] = window[i] - mean;
  const m = n - MAX_LAG;
  let e0 = 0;
  for (let i = 0; i < m; i++) e0 += x[i] * x[i];
  if (e0 === 0) return null;
  const nccf = new Float64Array(MAX_LAG + 2);
  let best = -1;
  let bestLag = 0;
  for (let lag = MIN_LAG; lag <= MAX_LAG; lag++) {
    let c = 0;
    let e1 = 0;
    for (let i = 0; i < m; i++) {
      c += x[i] * x[i + lag];
      e1 += x[i + lag] * x[i + lag];
    }
    const r = e1 > 0 ? c / Math.sqrt(e0 * e1) : 0;
    nccf[lag] = r;
    if (r > best) {
      best = r;
      bestLag = lag;
    }
  }
  if (best < VOICED_NCCF) return null;
  // Octave errors: a peak at half the lag nearly as strong is the true period.
  for (let div = 4; div >= 2; div--) {
    const half = Math.round(bestLag / div);
    if (half >= MIN_LAG && nccf[half] > 0.9 * best) {
      bestLag = half;
      break;
    }
  }
  // Parabolic interpolation around the peak for a sub-sample lag.
  const a = nccf[bestLag - 1] ?? 0;
  const b = nccf[bestLag];
  const c = nccf[bestLag + 1] ?? 0;
  const denom = a - 2 * b + c;
  const shift = bestLag > MIN_LAG && bestLag < MAX_LAG && denom !== 0 ? (0.5 * (a - c)) / denom : 0;
  return VAD_RATE / (bestLag + shift);
}

/** The median of some numbers (null for none). */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((p, q) => p - q);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * How sure a turn is over, 0..1 (Smart Turn's `end_of_turn_confidence`): a phrase ending in
 * falling pitch (a statement) scores high, a rising or level one (a question, a trailing-off)
 * lower; longer silence after it adds to it. `points` are the pitch estimates since the last final.
 */
export function turnConfidence(points: ReadonlyArray<{ atMs: number; f0: number }>, silenceMs: number): number {
  let fall = 0;
  if (points.length >= 4) {
    const lastAt = points[points.length - 1].atMs;
    const overall = median(points.map((p) => p.f0)) ?? 0;
    const end = median(points.filter((p) => p.atMs > lastAt - 300).map((p) => p.f0)) ?? overall;
    fall = Math.max(-0.3, Math.min(0.3, (overall - end) / overall));
  }
  const silence = Math.min(1, silenceMs / 1500);
  return Math.round(Math.max(0, Math.min(1, 0.4 + 1.5 * fall + 0.35 * silence)) * 100) / 100;
}
