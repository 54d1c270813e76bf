import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SERVICE_SAMPLE_RATES } from '../../../../shared/audio/errors';
import { FrameChunker, samplesPerFrame } from '../../../../shared/audio/frames';

describe('frames', () => {
  describe('samplesPerFrame()', () => {
    it('gives a whole 20 ms frame at every service rate', () => {
      expect(SERVICE_SAMPLE_RATES.map((r) => samplesPerFrame(r))).toEqual([160, 320, 441, 480, 882, 960]);
    });
    it('refuses a rate whose 20 ms is not whole', () => {
      expect(() => samplesPerFrame(11025)).toThrow(/not a whole number/);
    });
  });

  describe('FrameChunker', () => {
    it('cuts any sequence of pushes into exact frames, in order, losing nothing', () => {
      fc.assert(
        fc.property(fc.constantFrom(...SERVICE_SAMPLE_RATES), fc.constantFrom(1, 2), fc.array(fc.integer({ min: 0, max: 3000 }), { maxLength: 20 }), (rate, channels, sizes) => {
          const chunker = new FrameChunker(rate, channels);
          let next = 0;
          const frames: Int16Array[] = [];
          for (const size of sizes) {
            const push = Int16Array.from({ length: size * channels }, () => next++ % 30000);
            frames.push(...chunker.push(push));
          }
          const frameLength = samplesPerFrame(rate) * channels;
          expect(frames.every((f) => f.length === frameLength)).toBe(true);
          expect(frames.length).toBe(Math.floor(next / frameLength));
          expect(chunker.buffered).toBe(next % frameLength);
          expect(chunker.frameCount).toBe(frames.length);
          const joined = frames.flatMap((f) => [...f]);
          expect(joined).toEqual(Array.from({ length: joined.length }, (_, i) => i % 30000));
        }),
        { numRuns: 60 },
      );
    });

    it('does not reuse a frame it handed out', () => {
      const chunker = new FrameChunker(8000);
      const [first] = chunker.push(new Int16Array(160).fill(1));
      chunker.push(new Int16Array(160).fill(2));
      expect(first.every((s) => s === 1)).toBe(true);
    });

    it('flush() pads the last partial frame with silence, then has nothing', () => {
      const chunker = new FrameChunker(8000);
      chunker.push(new Int16Array(100).fill(7));
      const last = chunker.flush();
      expect(last?.length).toBe(160);
      expect([...last!.subarray(0, 100)].every((s) => s === 7)).toBe(true);
      expect([...last!.subarray(100)].every((s) => s === 0)).toBe(true);
      expect(chunker.flush()).toBeNull();
      expect(chunker.frameCount).toBe(1);
    });

    it('refuses a push that splits a multi-channel frame', () => {
      expect(() => new FrameChunker(16000, 2).push(new Int16Array(3))).toThrow(/whole/);
    });
  });
});
