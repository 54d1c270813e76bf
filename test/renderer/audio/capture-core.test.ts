import { describe, expect, it } from 'vitest';
import { Resampler } from '@shared/audio/resampler';
import { CaptureCore, type CoreFrame } from '@/audio/capture-core';
import type { Level } from '@shared/audio/levels';

/** A 48 kHz float sine split into 128-frame render quanta, on `channels` channels. */
function quanta(seconds: number, channels: number): Float32Array[][] {
  const total = Math.round(48000 * seconds);
  const out: Float32Array[][] = [];
  for (let at = 0; at < total; at += 128) {
    out.push(Array.from({ length: channels }, () => Float32Array.from({ length: 128 }, (_, i) => (Math.round(0.4 * Math.sin((2 * Math.PI * 440 * (at + i)) / 48000) * 32768) / 32768))));
  }
  return out;
}

describe('CaptureCore', () => {
  it('turns 128-frame quanta at 48 kHz into 20 ms frames at 16 kHz, numbered, equal to the resampled signal', () => {
    const core = new CaptureCore(48000, 16000);
    const frames: CoreFrame[] = [];
    const levels: Level[] = [];
    const input = quanta(1, 2);
    for (const q of input) {
      const out = core.process(q);
      frames.push(...out.frames);
      levels.push(...out.levels);
    }
    expect(frames.map((f) => f.seq)).toEqual([...Array(frames.length).keys()]);
    expect(frames.map((f) => f.startMs)).toEqual(frames.map((_, i) => i * 20));
    expect(frames.length).toBe(49); // the resampler holds back a few samples until more arrive
    expect(frames.every((f) => f.pcm.length === 320)).toBe(true);

    const mono = Int16Array.from(input.flatMap((q) => [...q[0]]), (x) => Math.round(x * 32768));
    const expected = new Resampler(48000, 16000).push(mono).subarray(0, 49 * 320);
    const joined = new Int16Array(49 * 320);
    frames.forEach((f, i) => joined.set(f.pcm, i * 320));
    expect(joined).toEqual(expected);
    // One level per 50 ms: 20 in a second (the last can still be pending).
    expect(levels.length).toBeGreaterThanOrEqual(19);
    expect(levels.length).toBeLessThanOrEqual(20);
    expect(levels[5].peak).toBeCloseTo(0.4, 2);
  });

  it('averages channels to mono', () => {
    const core = new CaptureCore(16000, 16000);
    const left = new Float32Array(320).fill(0.5);
    const right = new Float32Array(320).fill(-0.25);
    const { frames } = core.process([left, right]);
    expect(frames).toHaveLength(1);
    expect(new Set(frames[0].pcm)).toEqual(new Set([4096]));
  });

  it('keeps the two sides apart as interleaved stereo when asked, and hears a mono input on both', () => {
    const core = new CaptureCore(16000, 16000, 20, 2);
    const left = new Float32Array(320).fill(0.5);
    const right = new Float32Array(320).fill(-0.25);
    const { frames } = core.process([left, right]);
    expect(frames).toHaveLength(1);
    expect(frames[0].pcm).toHaveLength(640);
    expect([...frames[0].pcm.filter((_, i) => i % 2 === 0)].every((x) => x === 16384)).toBe(true);
    expect([...frames[0].pcm.filter((_, i) => i % 2 === 1)].every((x) => x === -8192)).toBe(true);
    const mono = core.process([new Float32Array(320).fill(0.25)]).frames[0]!.pcm;
    expect(new Set(mono)).toEqual(new Set([8192]));
  });

  it('ignores an empty input (no microphone connected to the node yet)', () => {
    expect(new CaptureCore(48000, 16000).process([])).toEqual({ frames: [], levels: [] });
  });
});
