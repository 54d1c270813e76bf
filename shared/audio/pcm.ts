/**
 * PCM sample conversions: signed 16-bit little-endian (the service's `pcm`) to and from the
 * float samples devices and the Web Audio API use, and interleaving of channels.
 * Every function returns new arrays; none keeps state.
 */

/** Int16 -> Float32 in [-1, 1). Divides by 32768 so -32768 maps to exactly -1. */
export function int16ToFloat32(samples: Int16Array): Float32Array {
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = samples[i] / 32768;
  return out;
}

/**
 * Float32 -> Int16, rounded to nearest and clamped (a float above 1 clips instead of wrapping).
 * Inverse of int16ToFloat32: int16 -> float -> int16 is exact.
 */
export function float32ToInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = clampInt16(samples[i] * 32768);
  return out;
}

/** Rounds and clamps one sample to the Int16 range; NaN becomes 0. */
export function clampInt16(value: number): number {
  if (!(value === value)) return 0;
  const rounded = Math.round(value);
  return rounded > 32767 ? 32767 : rounded < -32768 ? -32768 : rounded;
}

type Samples = Int16Array | Float32Array;

/** Planar channels (all the same length) -> one interleaved array (L R L R ...). */
export function interleave<T extends Samples>(channels: readonly T[]): T {
  if (channels.length === 0) throw new RangeError('interleave needs at least one channel');
  const frames = channels[0].length;
  for (const ch of channels) {
    if (ch.length !== frames) throw new RangeError('interleave needs channels of equal length');
  }
  const count = channels.length;
  const out = new (channels[0].constructor as new (n: number) => T)(frames * count);
  for (let c = 0; c < count; c++) {
    const ch = channels[c];
    for (let i = 0; i < frames; i++) out[i * count + c] = ch[i];
  }
  return out;
}

/** One interleaved array -> planar channels. The length must be a whole number of frames. */
export function deinterleave<T extends Samples>(samples: T, channels: number): T[] {
  if (!Number.isInteger(channels) || channels < 1) throw new RangeError(`channels must be a positive integer, got ${channels}`);
  if (samples.length % channels !== 0) {
    throw new RangeError(`${samples.length} samples are not a whole number of ${channels}-channel frames`);
  }
  const frames = samples.length / channels;
  const Ctor = samples.constructor as new (n: number) => T;
  const out: T[] = [];
  for (let c = 0; c < channels; c++) {
    const ch = new Ctor(frames);
    for (let i = 0; i < frames; i++) ch[i] = samples[i * channels + c];
    out.push(ch);
  }
  return out;
}

/** Averages interleaved channels into one (the service's live transcription is mono unless multichannel). */
export function mixToMono(samples: Int16Array, channels: number): Int16Array {
  if (channels === 1) return samples.slice();
  const frames = Math.floor(samples.length / channels);
  const out = new Int16Array(frames);
  for (let i = 0; i < frames; i++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += samples[i * channels + c];
    out[i] = clampInt16(sum / channels);
  }
  return out;
}

/** Little-endian bytes -> Int16 samples. Works at any byte offset; an odd trailing byte is an error. */
export function pcm16FromBytes(bytes: Uint8Array): Int16Array {
  if (bytes.length % 2 !== 0) throw new RangeError(`PCM16 needs an even number of bytes, got ${bytes.length}`);
  const out = new Int16Array(bytes.length / 2);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true);
  return out;
}

/** Int16 samples -> little-endian bytes (a copy, whatever the platform's byte order). */
export function pcm16ToBytes(samples: Int16Array): Uint8Array {
  const out = new Uint8Array(samples.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i], true);
  return out;
}
