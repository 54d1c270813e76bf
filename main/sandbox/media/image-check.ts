/**
 * What an input picture will cost, checked before it is decoded. Decoding allocates by what the
 * header says, not by what the file holds: pngjs fills missing image data with zeros, so a 61-byte
 * PNG claiming 10000x5000 cost 0.5 GB, and a 194 KB PNG of zeros inflates to 200 MB (an interlaced
 * one is inflated with no bound at all). So, from the bytes alone and in bounded memory:
 *
 * - the header's size: readable, at least 1x1, at most MAX_DECODE_PIXELS (the spec's 50 MP);
 * - PNG: every chunk whole, IHDR valid, IDAT present, IEND present, and the image data inflating
 *   (streamed through zlib on the thread pool, output counted and dropped) to exactly the bytes
 *   the header's size needs: fewer is a cut-short file, more a zlib bomb;
 * - JPEG: a frame header, scans with at least one bit per MCU of entropy-coded data (a file cut
 *   short, or a header over almost nothing, has far less), and the end-of-image marker;
 * - WebP (not decoded, see image-codec.ts): the RIFF container whole.
 *
 * Each refusal is a 400 naming the field and what is wrong.
 */
import { createInflate } from 'node:zlib';
import { SandboxError } from '../errors';
import { imageSize, MAX_DECODE_PIXELS, sniffMime, type ImageMime } from './image-codec';

export interface CheckedImage {
  width: number;
  height: number;
  mime: ImageMime;
}

const bad = (message: string): SandboxError => new SandboxError(400, message);

/** Checks `bytes` (an input at field path `at`) before any decoding; resolves with its size and type. */
export async function checkImageInput(bytes: Uint8Array, at: string): Promise<CheckedImage> {
  const size = imageSize(bytes);
  if (!size) {
    const found = sniffMime(bytes);
    throw bad(`${at}: the ${found ?? 'image'} header cannot be read (the file is damaged or cut short)`);
  }
  const { width, height, mime } = size;
  if (width < 1 || height < 1) throw bad(`${at}: its header says ${width}x${height} pixels; the file is damaged`);
  if (width * height > MAX_DECODE_PIXELS) {
    throw bad(`${at} is ${width}x${height} pixels; inputs may have at most ${MAX_DECODE_PIXELS / 1_000_000} megapixels (${MAX_DECODE_PIXELS.toLocaleString('en-US')} pixels)`);
  }
  if (mime === 'image/png') await checkPng(bytes, at);
  else if (mime === 'image/jpeg') checkJpeg(bytes, width, height, at);
  else checkWebp(bytes, at);
  return size;
}

const u32 = (b: Uint8Array, at: number): number => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
const fourcc = (b: Uint8Array, at: number): string => String.fromCharCode(b[at], b[at + 1], b[at + 2], b[at + 3]);

/** Channels per PNG colour type, and the bit depths each allows (PNG spec, IHDR). */
const PNG_COLOUR: Record<number, { channels: number; depths: number[] }> = {
  0: { channels: 1, depths: [1, 2, 4, 8, 16] },
  2: { channels: 3, depths: [8, 16] },
  3: { channels: 1, depths: [1, 2, 4, 8] },
  4: { channels: 2, depths: [8, 16] },
  6: { channels: 4, depths: [8, 16] },
};

/** Adam7 passes: x start, y start, x step, y step. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** The bytes the image data inflates to: a filter byte plus the packed pixels, per row (per pass when interlaced). */
export function pngInflatedSize(width: number, height: number, bitsPerPixel: number, interlaced: boolean): number {
  const rows = (w: number, h: number): number => (w === 0 || h === 0 ? 0 : h * (1 + Math.ceil((w * bitsPerPixel) / 8)));
  if (!interlaced) return rows(width, height);
  let total = 0;
  for (const [xs, ys, dx, dy] of ADAM7) total += rows(Math.max(0, Math.ceil((width - xs) / dx)), Math.max(0, Math.ceil((height - ys) / dy)));
  return total;
}

async function checkPng(b: Uint8Array, at: string): Promise<void> {
  const cut = (what: string) => bad(`${at} is a PNG cut short or damaged: ${what}; send the whole file`);
  const idat: Uint8Array[] = [];
  let expected = -1;
  let ended = false;
  for (let i = 8; !ended; ) {
    if (i + 8 > b.length) throw cut('it ends before its IEND chunk');
    const length = u32(b, i);
    const type = fourcc(b, i + 4);
    if (i + 12 + length > b.length) throw cut(`its ${type.replace(/[^\x20-\x7e]/g, '?')} chunk runs past the end of the file`);
    const data = b.subarray(i + 8, i + 8 + length);
    if (i === 8) {
      if (type !== 'IHDR' || length !== 13) throw cut('it does not start with an IHDR chunk');
      const depth = data[8];
      const colour = PNG_COLOUR[data[9]];
      if (!colour || !colour.depths.includes(depth) || data[10] !== 0 || data[11] !== 0 || data[12] > 1) {
        throw cut(`its IHDR has an invalid bit depth ${depth} / colour type ${data[9]} / method`);
      }
      expected = pngInflatedSize(u32(data, 0), u32(data, 4), colour.channels * depth, data[12] === 1);
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') ended = true;
    i += 12 + length;
  }
  if (idat.length === 0) throw cut('it has no image data (IDAT)');
  const inflated = await inflatedLength(idat, expected);
  if (inflated === 'error') throw cut('its image data does not inflate');
  if (inflated > expected) {
    throw bad(`${at} is a PNG whose image data inflates to more than the ${expected.toLocaleString('en-US')} bytes its size needs (a zlib bomb?); re-encode the picture`);
  }
  if (inflated < expected) throw cut(`its image data holds ${inflated.toLocaleString('en-US')} of the ${expected.toLocaleString('en-US')} bytes its size needs`);
}

/**
 * How many bytes the zlib stream inflates to, counted without keeping them (memory stays at one
 * 64 KiB chunk), stopping as soon as it passes `limit`; 'error' when the stream is damaged or
 * cut short. zlib runs on libuv's thread pool, so the event loop is not blocked meanwhile.
 */
function inflatedLength(parts: Uint8Array[], limit: number): Promise<number | 'error'> {
  return new Promise((resolve) => {
    const inflate = createInflate({ chunkSize: 64 * 1024 });
    let total = 0;
    let settled = false;
    const settle = (value: number | 'error') => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        settle(total);
        inflate.destroy();
      }
    });
    inflate.on('end', () => settle(total));
    inflate.on('error', () => settle('error'));
    for (const part of parts) inflate.write(part);
    inflate.end();
  });
}

function checkJpeg(b: Uint8Array, width: number, height: number, at: string): void {
  const cut = (what: string) => bad(`${at} is a JPEG cut short or damaged: ${what}; send the whole file`);
  let mcus = 0;
  let entropyBytes = 0;
  let scans = 0;
  let i = 2;
  for (;;) {
    // Fill bytes (0xff runs) may precede a marker.
    while (i < b.length && b[i] === 0xff && b[i + 1] === 0xff) i++;
    if (i + 1 >= b.length) throw cut('it ends before its end-of-image marker');
    if (b[i] !== 0xff) throw cut(`a marker is missing at byte ${i}`);
    const marker = b[i + 1];
    if (marker === 0xd9) break;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    if (i + 4 > b.length) throw cut('it ends inside a segment header');
    const length = (b[i + 2] << 8) | b[i + 3];
    if (length < 2 || i + 2 + length > b.length) throw cut('a segment runs past the end of the file');
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof && mcus === 0) {
      // Components: id, sampling (H << 4 | V), table; the MCU spans the largest sampling factors.
      const count = b[i + 9];
      let hMax = 1;
      let vMax = 1;
      for (let c = 0; c < count && i + 12 + c * 3 < b.length; c++) {
        const sampling = b[i + 11 + c * 3];
        hMax = Math.max(hMax, sampling >> 4);
        vMax = Math.max(vMax, sampling & 0x0f);
      }
      mcus = Math.ceil(width / (8 * hMax)) * Math.ceil(height / (8 * vMax));
    }
    i += 2 + length;
    if (marker !== 0xda) continue;
    // Entropy-coded data runs to the next marker that is not a stuffed 0xff00 or a restart marker.
    scans++;
    // indexOf jumps over the data natively: a 20 MB JPEG is walked in a few milliseconds.
    const start = i;
    for (;;) {
      const ff = b.indexOf(0xff, i);
      if (ff < 0 || ff + 1 >= b.length) throw cut('its image data ends before the end-of-image marker');
      const next = b[ff + 1];
      if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) {
        i = ff + 2;
        continue;
      }
      i = ff;
      break;
    }
    entropyBytes += i - start;
  }
  if (scans === 0 || mcus === 0) throw cut('it has no frame header or no image data');
  // Every MCU of the first scan takes at least one bit: far less data means the header lies.
  if (entropyBytes * 8 < mcus) {
    throw cut(`its ${width}x${height} pixels need at least ${Math.ceil(mcus / 8).toLocaleString('en-US')} bytes of image data; it has ${entropyBytes.toLocaleString('en-US')}`);
  }
}

function checkWebp(b: Uint8Array, at: string): void {
  const riffEnd = 8 + (((b[4] | (b[5] << 8) | (b[6] << 16) | (b[7] << 24)) >>> 0));
  if (riffEnd > b.length) throw bad(`${at} is a WebP cut short: its RIFF header says ${riffEnd} bytes, the file has ${b.length}; send the whole file`);
}
