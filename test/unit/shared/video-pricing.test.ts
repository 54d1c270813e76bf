import { describe, expect, it } from 'vitest';
import { estimateVideoCost, videoCostTicks } from '../../../shared/video-pricing';
import { costTicks } from '../../../main/sandbox/video/plan';

describe('video pricing', () => {
  it('bills and estimates with one table: the sandbox charges what the Videos view estimated', () => {
    for (const resolution of ['480p', '720p', '1080p'] as const) {
      for (const seconds of [1, 6, 8, 15]) {
        const estimate = estimateVideoCost({ mode: 'generate', duration: seconds, resolution });
        expect(estimate).toEqual({ kind: 'exact', ticks: costTicks(seconds, resolution), seconds, resolution });
      }
    }
    expect(videoCostTicks(8, '720p')).toBe(8_000_000_000);
  });

  it('takes the defaults a generation gets, ranges an extension over resolutions, and prices an edit per second', () => {
    expect(estimateVideoCost({ mode: 'generate' })).toMatchObject({ kind: 'exact', seconds: 8, resolution: '720p', ticks: 8_000_000_000 });
    expect(estimateVideoCost({ mode: 'extend' })).toEqual({ kind: 'range', seconds: 6, minTicks: 3_000_000_000, maxTicks: 12_000_000_000 });
    expect(estimateVideoCost({ mode: 'extend', duration: 2 })).toMatchObject({ minTicks: 1_000_000_000, maxTicks: 4_000_000_000 });
    expect(estimateVideoCost({ mode: 'edit' })).toEqual({ kind: 'per-second', minTicks: 500_000_000, maxTicks: 2_000_000_000 });
  });
});
