// The bench's profile reader (test/bench/cpu-profile-window.ts) on a small hand-made profile:
// self time by function in a window, the GC's share, idle left out, and the longest gap.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProfile, totals, windowReport } from '../../bench/cpu-profile-window';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function write(profile: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'cpuprof-'));
  dirs.push(dir);
  const file = join(dir, 'p.cpuprofile');
  writeFileSync(file, JSON.stringify(profile));
  return file;
}

describe('cpu-profile-window', () => {
  it('sums self time per function over a window, GC apart, idle left out, and finds the gap', () => {
    const node = (id: number, functionName: string, url = '', lineNumber = 0) => ({ id, callFrame: { functionName, url, lineNumber } });
    // Samples every 1 ms from t=1000 us: produce x3, GC x2, idle x2, then a 10 ms gap, then push x1.
    const samples = [2, 2, 2, 3, 3, 4, 4, 5];
    const timeDeltas = [1000, 1000, 1000, 1000, 1000, 1000, 1000, 10_000];
    const file = write({
      nodes: [node(1, '(root)'), node(2, 'produce', 'file:///x/shared/audio/resampler.ts', 172), node(3, '(garbage collector)'), node(4, '(idle)'), node(5, 'push', 'file:///x/shared/audio/resampler.ts', 80)],
      startTime: 0,
      samples,
      timeDeltas,
    });
    const p = loadProfile(file);
    expect(Array.from(p.times)).toEqual([1000, 2000, 3000, 4000, 5000, 6000, 7000, 17_000]);
    const all = windowReport(p, 0, 20_000);
    expect(all.samples).toBe(8);
    expect(all.top).toEqual([
      ['push shared/audio/resampler.ts:81', 10],
      ['produce shared/audio/resampler.ts:173', 3],
      ['(garbage collector)', 2],
    ]);
    expect(all.gcMs).toBe(2);
    expect(all.busyMs).toBe(15);
    expect(all.maxGapMs).toBe(10);
    // A window of the first 3.5 ms: the first three samples only.
    const early = windowReport(p, 0, 3500);
    expect(early).toMatchObject({ samples: 3, busyMs: 3, gcMs: 0, top: [['produce shared/audio/resampler.ts:173', 3]] });
    expect(totals(p, 1)).toEqual([['push shared/audio/resampler.ts:81', 10]]);
  });
});
