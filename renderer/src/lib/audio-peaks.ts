/**
 * A waveform's outline from decoded audio (pure): the largest magnitude over every channel in
 * each of `columns` equal spans, scaled so the loudest column is 1 (silence stays 0). The gallery's
 * audio thumbnails draw one bar per column.
 */

/** Longest audio given a waveform thumbnail (it is fetched whole and decoded in the page). */
export const AUDIO_THUMB_MAX_SECONDS = 10 * 60;

export function audioPeaks(channels: readonly Float32Array[], columns: number): Float32Array {
  const out = new Float32Array(Math.max(0, columns));
  const length = Math.max(0, ...channels.map((c) => c.length));
  if (length === 0 || columns <= 0) return out;
  for (let col = 0; col < columns; col++) {
    const from = Math.floor((col * length) / columns);
    const to = Math.max(from + 1, Math.floor(((col + 1) * length) / columns));
    let peak = 0;
    for (const channel of channels) {
      for (let i = from; i < to && i < channel.length; i++) {
        const v = Math.abs(channel[i]!);
        if (v > peak) peak = v;
      }
    }
    out[col] = peak;
  }
  const max = out.reduce((m, v) => Math.max(m, v), 0);
  if (max > 0) for (let col = 0; col < columns; col++) out[col] = out[col]! / max;
  return out;
}
