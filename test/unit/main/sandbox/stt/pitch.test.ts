/** Pitch estimates and the end-of-turn confidence built on them. */
import { describe, expect, it } from 'vitest';
import { estimatePitch, turnConfidence } from '../../../../../main/sandbox/stt/pitch';
import { Rng } from '../../../../../main/sandbox/generate/rng';

const tone = (hz: number) => Int16Array.from({ length: 640 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / 16000) + 2000 * Math.sin((4 * Math.PI * hz * i) / 16000)));

describe('estimatePitch', () => {
  it('finds the fundamental of voiced sound and nothing in noise or silence', () => {
    for (const hz of [80, 120, 210, 320]) expect(Math.abs(estimatePitch(tone(hz))! - hz), `${hz} Hz`).toBeLessThan(hz * 0.02);
    const rng = new Rng(7);
    expect(estimatePitch(Int16Array.from({ length: 640 }, () => Math.round((rng.next() - 0.5) * 20000)))).toBeNull();
    expect(estimatePitch(new Int16Array(640))).toBeNull();
  });
});

describe('turnConfidence', () => {
  const contour = (from: number, to: number) => Array.from({ length: 50 }, (_, i) => ({ atMs: i * 20, f0: from + ((to - from) * i) / 49 }));
  it('is higher for a phrase ending in falling pitch than rising, and grows with silence', () => {
    const falling = turnConfidence(contour(150, 100), 400);
    const level = turnConfidence(contour(120, 120), 400);
    const rising = turnConfidence(contour(100, 150), 400);
    expect(falling).toBeGreaterThan(level);
    expect(level).toBeGreaterThan(rising);
    expect(turnConfidence(contour(120, 120), 1500)).toBeGreaterThan(level);
    for (const c of [falling, level, rising]) {
      expect(c).toBeGreaterThanOrEqual(0);
      expect(c).toBeLessThanOrEqual(1);
    }
  });
});
