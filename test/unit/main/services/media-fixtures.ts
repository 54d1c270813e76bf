/**
 * Real media for the tests of probes, sources and the gallery: PNG (pngjs) and JPEG (jpeg-js)
 * encoded at a chosen size, a WebP header of each flavour, and MP4s made by ffmpeg (which the
 * tests need: `.ci/run` installs it).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

export function pngOf(width: number, height: number, seed = 0): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < png.data.length; i += 4) {
    png.data[i] = (i / 4 + seed) % 256;
    png.data[i + 1] = (seed * 7) % 256;
    png.data[i + 2] = 128;
    png.data[i + 3] = 255;
  }
  return PNG.sync.write(png);
}

export function jpegOf(width: number, height: number): Buffer {
  const data = Buffer.alloc(width * height * 4, 200);
  return jpeg.encode({ data, width, height }, 80).data;
}

/** A GIF89a header and a minimal body (the probe reads only the header). */
export function gifOf(width: number, height: number): Buffer {
  const b = Buffer.alloc(32);
  b.write('GIF89a', 0, 'ascii');
  b.writeUInt16LE(width, 6);
  b.writeUInt16LE(height, 8);
  return b;
}

/** The first bytes of a WebP of each flavour (lossy VP8, lossless VP8L, extended VP8X). */
export function webpOf(flavour: 'VP8 ' | 'VP8L' | 'VP8X', width: number, height: number): Buffer {
  const b = Buffer.alloc(64);
  b.write('RIFF', 0, 'ascii');
  b.writeUInt32LE(56, 4);
  b.write('WEBP', 8, 'ascii');
  b.write(flavour, 12, 'ascii');
  b.writeUInt32LE(40, 16);
  if (flavour === 'VP8 ') {
    b[23] = 0x9d;
    b[24] = 0x01;
    b[25] = 0x2a;
    b.writeUInt16LE(width, 26);
    b.writeUInt16LE(height, 28);
  } else if (flavour === 'VP8L') {
    b[20] = 0x2f;
    b.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 21);
  } else {
    b.writeUIntLE(width - 1, 24, 3);
    b.writeUIntLE(height - 1, 27, 3);
  }
  return b;
}

/** An H.264 MP4 of `seconds` at width x height (moov at the end unless `faststart`), made by ffmpeg (`.ci/run` installs it). */
export function mp4Of(width: number, height: number, seconds: number, faststart = false): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'mp4-fixture-'));
  try {
    const out = join(dir, 'clip.mp4');
    execFileSync('ffmpeg', [
      '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=duration=${seconds}:size=${width}x${height}:rate=10`,
      '-pix_fmt', 'yuv420p', ...(faststart ? ['-movflags', '+faststart'] : []), out,
    ]);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
