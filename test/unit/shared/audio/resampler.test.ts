import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SERVICE_SAMPLE_RATES } from '../../../../shared/audio/errors';
import { Resampler } from '../../../../shared/audio/resampler';

function sine(rate: number, hz: number, frames: number, amplitude = 16000, channels = 1): Int16Array {
  const out = new Int16Array(frames * channels);
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < channels; c++) out[i * channels + c] = Math.round(amplitude * (c === 0 ? 1 : -0.5) * Math.sin((2 * Math.PI * hz * i) / rate));
  }
  return out;
}

function whole(from: number, to: number, samples: Int16Array, channels = 1): Int16Array {
  const r = new Resampler(from, to, channels);
  return concat([r.push(samples), r.flush()]);
}

function concat(parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Amplitude of frequency `hz` in `samples` (a single DFT bin, Goertzel-style). */
function amplitudeAt(samples: Int16Array, rate: number, hz: number): number {
  let re = 0;
  let im = 0;
  for (let i = 0; i < samples.length; i++) {
    re += samples[i] * Math.cos((2 * Math.PI * hz * i) / rate);
    im -= samples[i] * Math.sin((2 * Math.PI * hz * i) / rate);
  }
  return (2 * Math.hypot(re, im)) / samples.length;
}

/** Frequency estimated from the spacing of rising zero crossings (interpolated), over the middle of the signal. */
function measuredFrequency(samples: Int16Array, rate: number): number {
  const crossings: number[] = [];
  for (let i = 1; i < samples.length; i++) {
    if (samples[i - 1] < 0 && samples[i] >= 0) crossings.push(i - 1 + -samples[i - 1] / (samples[i] - samples[i - 1]));
  }
  const inner = crossings.slice(2, -2);
  return ((inner.length - 1) * rate) / (inner[inner.length - 1] - inner[0]);
}

const PAIRS = SERVICE_SAMPLE_RATES.flatMap((from) => SERVICE_SAMPLE_RATES.filter((to) => to !== from).map((to) => [from, to] as const));

describe('Resampler', () => {
  it.each(PAIRS)('keeps a 440 Hz sine at 440 Hz and its amplitude, %i -> %i Hz', (from, to) => {
    const out = whole(from, to, sine(from, 440, from)); // one second
    expect(out.length).toBe(to);
    expect(measuredFrequency(out, to)).toBeCloseTo(440, 1);
    const middle = out.subarray(to / 4, (to * 3) / 4);
    expect(amplitudeAt(middle, to, 440)).toBeGreaterThan(16000 * 0.99);
    expect(amplitudeAt(middle, to, 440)).toBeLessThan(16000 * 1.01);
  });

  it.each(PAIRS)('gives the same samples fed in 20 ms frames as fed whole, %i -> %i Hz', (from, to) => {
    const input = sine(from, 1000, from / 2, 12000, 2);
    const r = new Resampler(from, to, 2);
    const parts: Int16Array[] = [];
    const frame = (from / 50) * 2;
    for (let at = 0; at < input.length; at += frame) parts.push(r.push(input.subarray(at, at + frame)));
    parts.push(r.flush());
    expect(concat(parts)).toEqual(whole(from, to, input, 2));
  });

  it('gives the same samples for any split of the input', () => {
    const input = sine(44100, 523, 4410, 20000);
    const expected = whole(44100, 16000, input);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: input.length }), { maxLength: 12 }), (cuts) => {
        const points = [0, ...cuts.sort((a, b) => a - b), input.length];
        const r = new Resampler(44100, 16000);
        const parts = points.slice(1).map((end, i) => r.push(input.subarray(points[i], end)));
        parts.push(r.flush());
        expect(concat(parts)).toEqual(expected);
      }),
      { numRuns: 40 },
    );
  });

  it('has no click at frame edges: 20 ms frames give the ideal sine at the new rate', () => {
    const r = new Resampler(48000, 16000);
    const input = sine(48000, 200, 48000, 20000);
    const parts: Int16Array[] = [];
    for (let at = 0; at < input.length; at += 960) parts.push(r.push(input.subarray(at, at + 960)));
    const out = concat(parts);
    const ideal = sine(16000, 200, out.length, 20000);
    // Past the onset's ringing (the first 20 ms), every sample is within a few LSB of the ideal.
    let worst = 0;
    for (let i = 320; i < out.length; i++) worst = Math.max(worst, Math.abs(out[i] - ideal[i]));
    expect(worst).toBeLessThan(8);
  });

  it('filters out what the lower rate cannot carry instead of folding it back', () => {
    // 6 kHz at 48 kHz is above 8 kHz audio's 4 kHz Nyquist: it would alias to 2 kHz.
    const out = whole(48000, 8000, sine(48000, 6000, 48000, 20000));
    const middle = out.subarray(2000, 6000);
    expect(amplitudeAt(middle, 8000, 2000)).toBeLessThan(20000 * 10 ** (-60 / 20));
  });

  it('keeps a constant constant (unity gain at every phase)', () => {
    const out = whole(22050, 24000, new Int16Array(22050).fill(10000));
    expect(new Set(out.subarray(100, out.length - 100))).toEqual(new Set([10000]));
  });

  it('lines output up with input time: an impulse at 10 ms comes out at 10 ms', () => {
    const input = new Int16Array(16000);
    input[160] = 30000;
    const out = whole(16000, 48000, input);
    const peakAt = out.indexOf(Math.max(...out));
    expect(peakAt).toBe(480);
  });

  it('passes samples through untouched at equal rates', () => {
    const input = sine(16000, 440, 320);
    const r = new Resampler(16000, 16000);
    expect(r.push(input)).toEqual(input);
    expect(r.flush()).toEqual(new Int16Array(0));
  });

  it('counts frames in and out', () => {
    const r = new Resampler(44100, 16000);
    r.push(new Int16Array(882));
    r.push(new Int16Array(882));
    r.flush();
    expect(r.counts).toEqual({ input: 1764, output: 640 });
  });

  it('refuses impossible arguments and pushes after flush', () => {
    expect(() => new Resampler(0, 16000)).toThrow(/fromRate/);
    expect(() => new Resampler(16000, 1.5)).toThrow(/toRate/);
    expect(() => new Resampler(16000, 8000, 2).push(new Int16Array(3))).toThrow(/whole/);
    const r = new Resampler(16000, 8000);
    r.flush();
    expect(() => r.push(new Int16Array(2))).toThrow(/after flush/);
  });

  it('works at rates that share no common factor (coefficients computed per sample)', () => {
    const out = whole(44100, 16001, sine(44100, 440, 44100));
    expect(out.length).toBe(16001);
    expect(measuredFrequency(out, 16001)).toBeCloseTo(440, 1);
  });
});

describe('Resampler: PCM16 push without a float copy', () => {
  it('push(pcm16) gives exactly what pushFloat gives for the same samples, push by push and at flush', () => {
    const toFloat = (x: Int16Array) => Float32Array.from(x, (v) => v / 32768);
    const toPcm = (x: Float32Array) => Int16Array.from(x, (v) => Math.max(-32768, Math.min(32767, Math.round(v * 32768))));
    for (const [from, to, channels] of [[24000, 48000, 1], [48000, 24000, 2], [44100, 16000, 1], [8000, 24000, 2]] as const) {
      const a = new Resampler(from, to, channels);
      const b = new Resampler(from, to, channels);
      const signal = sine(from, 440, from / 2, 20000, channels);
      let total = 0;
      // Uneven pushes (a device's periods, an answer's deltas).
      for (let at = 0, k = 0; at < signal.length; k++) {
        const frames = [7, 480, 1, 2399, 160][k % 5]!;
        const piece = signal.subarray(at, Math.min(signal.length, at + frames * channels));
        at += piece.length;
        const out = a.push(piece);
        expect(Array.from(out)).toEqual(Array.from(toPcm(b.pushFloat(toFloat(piece)))));
        total += out.length;
      }
      const last = a.flush();
      expect(Array.from(last)).toEqual(Array.from(toPcm(b.flushFloat())));
      // Every input frame accounted for: the output lines up with the input (ceil(frames·to/from)).
      expect((total + last.length) / channels).toBe(Math.ceil(((signal.length / channels) * to) / from));
    }
  });
});
