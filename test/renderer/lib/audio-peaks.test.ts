import { describe, expect, it } from 'vitest';
import { audioPeaks } from '@/lib/audio-peaks';

describe('audioPeaks', () => {
  it('takes the loudest sample of every channel per column, scaled to the loudest column', () => {
    const left = new Float32Array([0.1, -0.2, 0, 0, 0.05, 0.05, 0, 0]);
    const right = new Float32Array([0, 0, 0, -0.4, 0, 0.1, 0, 0]);
    expect([...audioPeaks([left, right], 4)].map((v) => Math.round(v * 100) / 100)).toEqual([0.5, 1, 0.25, 0]);
  });

  it('is all zero for silence or no audio, and keeps the column count for audio shorter than it', () => {
    expect([...audioPeaks([new Float32Array(10)], 3)]).toEqual([0, 0, 0]);
    expect([...audioPeaks([], 3)]).toEqual([0, 0, 0]);
    expect([...audioPeaks([new Float32Array([0.5, -1])], 4)]).toEqual([0.5, 0.5, 1, 1]);
  });
});
