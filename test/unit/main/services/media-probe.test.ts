import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { probeBytes, probeFile, sniffType } from '../../../../main/services/media-probe';
import { gifOf, jpegOf, mp4Of, pngOf, webpOf } from './media-fixtures';

const dir = mkdtempSync(join(tmpdir(), 'media-probe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('services/media-probe', () => {
  describe('probeBytes()', () => {
    it('reads a PNG’s size from its IHDR', async () => {
      expect(await probeBytes(pngOf(37, 21))).toEqual({ mime: 'image/png', label: 'PNG', kind: 'image', width: 37, height: 21, duration: null });
    });

    it('reads a JPEG’s size from its start-of-frame, past the segments before it', async () => {
      expect(await probeBytes(jpegOf(64, 40))).toMatchObject({ mime: 'image/jpeg', width: 64, height: 40 });
      // An APP1 (EXIF-like) segment of 5,000 bytes before the frame.
      const plain = jpegOf(16, 9);
      const app1 = Buffer.alloc(5_000 + 4);
      app1[0] = 0xff;
      app1[1] = 0xe1;
      app1.writeUInt16BE(5_002, 2);
      const withExif = Buffer.concat([plain.subarray(0, 2), app1, plain.subarray(2)]);
      expect(await probeBytes(withExif)).toMatchObject({ mime: 'image/jpeg', width: 16, height: 9 });
    });

    it('reads each WebP flavour’s size', async () => {
      expect(await probeBytes(webpOf('VP8 ', 40, 30))).toMatchObject({ mime: 'image/webp', width: 40, height: 30 });
      expect(await probeBytes(webpOf('VP8L', 1000, 3))).toMatchObject({ mime: 'image/webp', width: 1000, height: 3 });
      expect(await probeBytes(webpOf('VP8X', 4000, 2250))).toMatchObject({ mime: 'image/webp', width: 4000, height: 2250 });
    });

    it('names a GIF, a PDF and a HEIC by their magic bytes', async () => {
      expect(await probeBytes(gifOf(5, 6))).toMatchObject({ mime: 'image/gif', label: 'GIF', width: 5, height: 6 });
      expect(await probeBytes(Buffer.from('%PDF-1.7\n...'))).toMatchObject({ mime: 'application/pdf', kind: 'other' });
      const heic = Buffer.alloc(32);
      heic.writeUInt32BE(24, 0);
      heic.write('ftypheic', 4, 'ascii');
      expect(await probeBytes(heic)).toMatchObject({ mime: 'image/heic', label: 'HEIC', kind: 'image' });
      expect(await probeBytes(Buffer.from('just some text'))).toBeNull();
      expect(await probeBytes(Buffer.alloc(0))).toBeNull();
    });

    it('gives the type without a size when the header is cut short', async () => {
      expect(await probeBytes(pngOf(10, 10).subarray(0, 12))).toMatchObject({ mime: 'image/png', width: null, height: null });
      expect(await probeBytes(jpegOf(10, 10).subarray(0, 30))).toMatchObject({ mime: 'image/jpeg', width: null });
    });

    it('never throws, whatever the bytes', async () => {
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), fc.constantFrom(pngOf(3, 3), jpegOf(8, 8), webpOf('VP8X', 9, 9), Buffer.alloc(0)), async (tail, head) => {
          const bytes = Buffer.concat([head.subarray(0, Math.min(head.length, 40)), tail]);
          await probeBytes(bytes);
        }),
        { numRuns: 200 },
      );
    });
  });

  describe('probeFile()', () => {
    const cases: Array<[string, boolean]> = [
      ['moov at the end', false],
      ['moov first (faststart)', true],
    ];
    for (const [label, faststart] of cases) {
      it(`reads an MP4’s picture size and duration (${label})`, async () => {
        const mp4 = mp4Of(320, 240, 2, faststart);
        const path = join(dir, `clip-${faststart}.mp4`);
        writeFileSync(path, mp4);
        expect(await probeFile(path)).toEqual({ mime: 'video/mp4', label: 'MP4 video', kind: 'video', width: 320, height: 240, duration: 2 });
      });
    }

    it('probes an image file the same as its bytes', async () => {
      const path = join(dir, 'picture.png');
      writeFileSync(path, pngOf(12, 34));
      expect(await probeFile(path)).toMatchObject({ mime: 'image/png', width: 12, height: 34 });
    });
  });

  describe('sniffType()', () => {
    it('tells a QuickTime movie from an MP4', () => {
      const mov = Buffer.alloc(16);
      mov.writeUInt32BE(20, 0);
      mov.write('ftypqt  ', 4, 'ascii');
      expect(sniffType(mov)).toMatchObject({ mime: 'video/quicktime' });
    });
  });
});
