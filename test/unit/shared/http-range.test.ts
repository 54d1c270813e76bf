import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideRange, rangeResponseHead } from '../../../shared/http-range';

describe('http-range', () => {
  describe('decideRange()', () => {
    it.each([
      ['bytes=0-99', 1000, { kind: 'partial', start: 0, end: 99 }],
      ['bytes=500-', 1000, { kind: 'partial', start: 500, end: 999 }],
      ['bytes=-100', 1000, { kind: 'partial', start: 900, end: 999 }],
      ['bytes=-5000', 1000, { kind: 'partial', start: 0, end: 999 }],
      ['bytes=990-5000', 1000, { kind: 'partial', start: 990, end: 999 }],
      ['bytes=999-999', 1000, { kind: 'partial', start: 999, end: 999 }],
      ['bytes=1-2', 1000, { kind: 'partial', start: 1, end: 2 }],
      ['BYTES=1-2', 1000, { kind: 'partial', start: 1, end: 2 }],
      // Whitespace inside the value is not RFC 9110 syntax: the header is ignored.
      [' bytes = 1 - 2 ', 1000, { kind: 'full' }],
      ['bytes=1 -2', 1000, { kind: 'full' }],
      ['bytes= 1-2', 1000, { kind: 'full' }],
      ['bytes=1-\t2', 1000, { kind: 'full' }],
      // Positions at and past 2^53 are compared exactly: past the end is 416, a huge last is clamped.
      ['bytes=9007199254740992-', 1000, { kind: 'unsatisfiable' }],
      ['bytes=9007199254740993-9007199254740999', 1000, { kind: 'unsatisfiable' }],
      ['bytes=99999999999999999999999-', 1000, { kind: 'unsatisfiable' }],
      ['bytes=10-9007199254740993', 1000, { kind: 'partial', start: 10, end: 999 }],
      ['bytes=-9007199254740993', 1000, { kind: 'partial', start: 0, end: 999 }],
      ['bytes=9007199254740993-1', 1000, { kind: 'full' }],
      // Several ranges: the whole body when one of them can be met, 416 when none can.
      ['bytes=0-1, 5-6', 1000, { kind: 'full' }],
      ['bytes=2000-, 3000-3001', 1000, { kind: 'unsatisfiable' }],
      ['bytes=0-1,,', 1000, { kind: 'partial', start: 0, end: 1 }],
      ['bytes=1000-', 1000, { kind: 'unsatisfiable' }],
      ['bytes=1000-2000', 1000, { kind: 'unsatisfiable' }],
      ['bytes=-0', 1000, { kind: 'unsatisfiable' }],
      ['bytes=-10', 0, { kind: 'unsatisfiable' }],
      [undefined, 1000, { kind: 'full' }],
      ['', 1000, { kind: 'full' }],
      ['bytes=-', 1000, { kind: 'full' }],
      ['bytes=5-2', 1000, { kind: 'full' }],
      ['bytes=0-1,5-6', 1000, { kind: 'full' }],
      ['items=0-5', 1000, { kind: 'full' }],
      ['bytes=abc', 1000, { kind: 'full' }],
    ] as const)('%j of %i bytes is %j', (header, size, expected) => {
      expect(decideRange(header, size)).toEqual(expected);
    });

    it('only ever answers a range inside the body', () => {
      fc.assert(
        fc.property(fc.nat(10_000), fc.option(fc.nat(20_000)), fc.option(fc.nat(20_000)), (size, a, b) => {
          const header = `bytes=${a ?? ''}-${b ?? ''}`;
          const d = decideRange(header, size);
          if (d.kind === 'partial') {
            expect(d.start).toBeGreaterThanOrEqual(0);
            expect(d.end).toBeGreaterThanOrEqual(d.start);
            expect(d.end).toBeLessThan(size);
          }
          if (d.kind === 'unsatisfiable') expect(a === null ? b === 0 || size === 0 : a >= size).toBe(true);
        }),
      );
    });
  });

  describe('rangeResponseHead()', () => {
    it('answers 200 with the whole length, 206 with Content-Range, 416 with bytes */size', () => {
      expect(rangeResponseHead(undefined, 10, 'video/mp4')).toEqual({
        status: 200,
        headers: { 'Accept-Ranges': 'bytes', 'Content-Type': 'video/mp4', 'Content-Length': '10' },
        start: 0,
        end: 9,
      });
      expect(rangeResponseHead('bytes=-4', 10, 'video/mp4')).toEqual({
        status: 206,
        headers: { 'Accept-Ranges': 'bytes', 'Content-Type': 'video/mp4', 'Content-Length': '4', 'Content-Range': 'bytes 6-9/10' },
        start: 6,
        end: 9,
      });
      expect(rangeResponseHead('bytes=10-', 10, 'video/mp4')).toMatchObject({
        status: 416,
        headers: { 'Content-Range': 'bytes */10' },
      });
    });
  });
});
