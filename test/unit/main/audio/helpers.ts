/** Test helpers for main/audio: signals, waiting on a condition, joining arrays. */

export function sine(rate: number, hz: number, frames: number, channels = 1, amplitude = 12000): Int16Array {
  const out = new Int16Array(frames * channels);
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < channels; c++) out[i * channels + c] = Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate + c));
  }
  return out;
}

export function concat(parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Resolves when `check()` holds, polling; rejects after `timeoutMs` with what was last seen. */
export async function until(check: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
