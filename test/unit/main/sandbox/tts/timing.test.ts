import { describe, expect, it } from 'vitest';
import { timeCharacters } from '../../../../../main/sandbox/tts/timing';

const RATE = 1000;

/** Sound (a 0.5 amplitude square) and silence, in seconds. */
function signal(...spans: Array<[boolean, number]>): Float32Array {
  const out: number[] = [];
  for (const [on, seconds] of spans) for (let i = 0; i < seconds * RATE; i++) out.push(on ? (i % 2 ? 0.5 : -0.5) : 0);
  return Float32Array.from(out);
}

describe('character timing inside a chunk', () => {
  it('gives each clause the speech between the pauses, the comma the pause itself', () => {
    // 0.1 s silence, "ab" 0.4 s, pause 0.3 s, "cd" 0.2 s, 0.1 s silence.
    const times = timeCharacters('ab, cd', signal([false, 0.1], [true, 0.4], [false, 0.3], [true, 0.2], [false, 0.1]), RATE);
    expect(times).toHaveLength(6);
    expect(times[0][0]).toBeCloseTo(0.1, 2);
    expect(times[1][1]).toBeCloseTo(0.5, 2);
    // The comma and its space take the pause.
    expect(times[2][0]).toBeCloseTo(0.5, 2);
    expect(times[3][1]).toBeCloseTo(0.8, 2);
    expect(times[4][0]).toBeCloseTo(0.8, 2);
    expect(times[5][1]).toBeCloseTo(1.0, 2);
  });

  it('shares the voiced span when the pauses do not match the marks, monotonic either way', () => {
    const times = timeCharacters('one, two, three', signal([false, 0.05], [true, 1.0], [false, 0.05]), RATE);
    expect(times[0][0]).toBeCloseTo(0.05, 2);
    expect(times.at(-1)?.[1]).toBeCloseTo(1.05, 2);
    for (let i = 1; i < times.length; i++) expect(times[i][0]).toBeCloseTo(times[i - 1][1], 9);
  });
});
