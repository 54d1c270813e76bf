import { describe, expect, it } from 'vitest';
import { LevelMeter, MIN_DBFS, measureLevel, toDbfs, type Level } from '../../../../shared/audio/levels';

describe('levels', () => {
  describe('measureLevel()', () => {
    it('reads a full-scale square wave as 0 dBFS and silence as the floor', () => {
      const square = Int16Array.from({ length: 100 }, (_, i) => (i % 2 ? 32767 : -32768));
      const level = measureLevel(square);
      expect(level.peak).toBe(1);
      expect(level.rmsDbfs).toBeCloseTo(0, 3);
      expect(measureLevel(new Int16Array(100))).toEqual({ rms: 0, peak: 0, rmsDbfs: MIN_DBFS, peakDbfs: MIN_DBFS });
      expect(measureLevel(new Int16Array(0)).rms).toBe(0);
    });

    it('reads a sine at half scale as -6 dBFS peak and -9 dBFS RMS', () => {
      const sine = Int16Array.from({ length: 16000 }, (_, i) => Math.round(16384 * Math.sin((2 * Math.PI * 1000 * i) / 16000)));
      const level = measureLevel(sine);
      expect(level.peakDbfs).toBeCloseTo(-6.02, 1);
      expect(level.rmsDbfs).toBeCloseTo(-9.03, 1);
    });
  });

  it('toDbfs() floors at MIN_DBFS', () => {
    expect(toDbfs(0)).toBe(MIN_DBFS);
    expect(toDbfs(1e-9)).toBe(MIN_DBFS);
    expect(toDbfs(0.1)).toBeCloseTo(-20, 6);
  });

  describe('LevelMeter', () => {
    it('reports once per 50 ms of audio however the samples are split (20 per second)', () => {
      const levels: Level[] = [];
      const meter = new LevelMeter(16000, 1, (l) => levels.push(l));
      // One second in uneven pushes; the loudness steps up every 50 ms window.
      const second = Int16Array.from({ length: 16000 }, (_, i) => (Math.floor(i / 800) + 1) * 1000 * (i % 2 ? 1 : -1));
      for (const size of [7, 333, 960, 1, 4000, 10699]) meter.push(second.subarray(second.length - sum(size), second.length - sum(size) + size));
      expect(levels.length).toBe(20);
      expect(levels.map((l) => Math.round(l.peak * 32768))).toEqual(Array.from({ length: 20 }, (_, k) => (k + 1) * 1000));
    });

    it('reset() drops a partial window', () => {
      const levels: Level[] = [];
      const meter = new LevelMeter(8000, 2, (l) => levels.push(l));
      meter.push(new Int16Array(700).fill(30000));
      meter.reset();
      meter.push(new Int16Array(800).fill(100));
      expect(levels.length).toBe(1);
      expect(Math.round(levels[0].peak * 32768)).toBe(100);
    });
  });
});

/** Samples remaining from a push of `size` onwards, for the uneven split above. */
function sum(size: number): number {
  const sizes = [7, 333, 960, 1, 4000, 10699];
  return sizes.slice(sizes.indexOf(size)).reduce((a, b) => a + b, 0);
}
