/**
 * Real image bytes for the sandbox's media (images, and video's image inputs and frames): type
 * sniffing by magic bytes, header-only sizes, decoding to RGBA, resizing, and JPEG / PNG encoding.
 * Pure JavaScript (jpeg-js, pngjs) so it runs anywhere the sandbox does.
 *
 * WebP is the one exception: there is no pure-JS WebP decoder here. Its header is parsed for the
 * real width and height, and `decodeImage` returns a deterministic stand-in (a gradient whose
 * colours are derived from the file's bytes) flagged `standIn: true`, so an edit of a WebP still
 * has the right size and a stable look, but not the picture's content.
 */
import { createHash } from 'node:crypto';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

export type ImageMime = 'image/jpeg' | 'image/png' | 'image/webp';

/** Straight (non-premultiplied) RGBA, 4 bytes per pixel, rows top to bottom. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface DecodedImage extends RgbaImage {
  mime: ImageMime;
  /** True when `data` is not the picture but a stand-in (WebP, see above). */
  standIn: boolean;
}

/** A file that is not a decodable image of the accepted kinds; the message says what was found. */
export class ImageDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageDecodeError';
  }
}

/** Decoding refuses pictures larger than this (a 20 MB PNG can hold far more pixels than fit in memory). */
export const MAX_DECODE_PIXELS = 50_000_000;

const ascii = (bytes: Uint8Array, start: number, length: number): string => String.fromCharCode(...bytes.subarray(start, start + length));

/**
 * The media type the bytes really are, by their magic numbers (never by a declared type): the
 * image kinds an edit accepts, other common images (so an error can name them), and MP4 /
 * QuickTime / WebM for video inputs. null when unrecognised.
 */
export function sniffMime(bytes: Uint8Array): string | null {
  const b = bytes;
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 8 && b[0] === 0x89 && ascii(b, 1, 3) === 'PNG' && b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a) return 'image/png';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return 'image/webp';
  if (b.length >= 6 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')) return 'image/gif';
  if (b.length >= 2 && ascii(b, 0, 2) === 'BM') return 'image/bmp';
  if (b.length >= 4 && ((b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a && b[3] === 0) || (b[0] === 0x4d && b[1] === 0x4d && b[2] === 0 && b[3] === 0x2a))) return 'image/tiff';
  if (b.length >= 12 && ascii(b, 4, 4) === 'ftyp') {
    const brand = ascii(b, 8, 4);
    if (brand === 'avif' || brand === 'avis') return 'image/avif';
    if (['heic', 'heix', 'mif1', 'msf1', 'hevc'].includes(brand)) return 'image/heic';
    if (brand === 'qt  ') return 'video/quicktime';
    return 'video/mp4';
  }
  if (b.length >= 4 && b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return 'video/webm';
  if (b.length >= 5 && ascii(b, 0, 5) === '%PDF-') return 'application/pdf';
  return null;
}

/** The image type of the bytes when it is one an edit accepts (JPEG, PNG, WebP), else null. */
export function sniffImageMime(bytes: Uint8Array): ImageMime | null {
  const mime = sniffMime(bytes);
  return mime === 'image/jpeg' || mime === 'image/png' || mime === 'image/webp' ? mime : null;
}

/** Width and height from the header alone (cheap: no decoding), or null when it cannot be read. */
export function imageSize(bytes: Uint8Array): { width: number; height: number; mime: ImageMime } | null {
  const mime = sniffImageMime(bytes);
  if (mime === 'image/png') {
    if (bytes.length < 24 || ascii(bytes, 12, 4) !== 'IHDR') return null;
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return { width: v.getUint32(16), height: v.getUint32(20), mime };
  }
  if (mime === 'image/jpeg') {
    const size = jpegSize(bytes);
    return size && { ...size, mime };
  }
  if (mime === 'image/webp') {
    const size = webpSize(bytes);
    return size && { ...size, mime };
  }
  return null;
}

/** Walks the JPEG markers to the first start-of-frame. */
function jpegSize(b: Uint8Array): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2; // markers without a length
      continue;
    }
    const length = (b[i + 2] << 8) | b[i + 3];
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) return { height: (b[i + 5] << 8) | b[i + 6], width: (b[i + 7] << 8) | b[i + 8] };
    if (length < 2) return null;
    i += 2 + length;
  }
  return null;
}

/** The canvas size of a WebP from its first chunk: lossy `VP8 `, lossless `VP8L` or extended `VP8X`. */
function webpSize(b: Uint8Array): { width: number; height: number } | null {
  if (b.length < 30) return null;
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ') {
    // Frame tag (3 bytes), then the start code 9d 01 2a, then 14-bit width and height.
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return { width: ((b[27] << 8) | b[26]) & 0x3fff, height: ((b[29] << 8) | b[28]) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return null;
    const bits = (b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24)) >>> 0;
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    return { width: (b[24] | (b[25] << 8) | (b[26] << 16)) + 1, height: (b[27] | (b[28] << 8) | (b[29] << 16)) + 1 };
  }
  return null;
}

/** Decodes a JPEG, PNG or WebP (stand-in, see above) to RGBA; throws ImageDecodeError saying why not. */
export function decodeImage(bytes: Uint8Array): DecodedImage {
  const size = imageSize(bytes);
  if (!size) {
    const found = sniffMime(bytes);
    throw new ImageDecodeError(found ? `it is ${found}, not JPEG, PNG or WebP` : 'it is not a JPEG, PNG or WebP image (unrecognised bytes)');
  }
  if (size.width < 1 || size.height < 1) throw new ImageDecodeError(`its header says ${size.width}x${size.height} pixels`);
  if (size.width * size.height > MAX_DECODE_PIXELS) {
    throw new ImageDecodeError(`it is ${size.width}x${size.height} pixels; the sandbox decodes at most ${MAX_DECODE_PIXELS / 1_000_000} megapixels`);
  }
  try {
    if (size.mime === 'image/png') {
      const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      return { width: png.width, height: png.height, data: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.byteLength), mime: size.mime, standIn: false };
    }
    if (size.mime === 'image/jpeg') {
      const img = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_DECODE_PIXELS / 1_000_000, maxMemoryUsageInMB: 1024 });
      return { width: img.width, height: img.height, data: img.data, mime: size.mime, standIn: false };
    }
  } catch (err) {
    throw new ImageDecodeError(`it looks like ${size.mime} but does not decode: ${(err as Error).message}`);
  }
  return { ...webpStandIn(bytes, size.width, size.height), mime: size.mime, standIn: true };
}

/**
 * A WebP's stand-in picture: a diagonal gradient between two colours taken from a hash of the
 * file, so the same file always gives the same pixels and different files usually differ.
 */
function webpStandIn(bytes: Uint8Array, width: number, height: number): RgbaImage {
  const h = createHash('sha256').update(bytes).digest();
  const data = new Uint8Array(width * height * 4);
  const span = Math.max(1, width + height - 2);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x + y) / span;
      const o = (y * width + x) * 4;
      data[o] = h[0] + (h[3] - h[0]) * t;
      data[o + 1] = h[1] + (h[4] - h[1]) * t;
      data[o + 2] = h[2] + (h[5] - h[2]) * t;
      data[o + 3] = 255;
    }
  }
  return { width, height, data };
}

/**
 * Bilinear resize (fast, good for the sandbox's purposes; a large downscale aliases a little).
 * Returns the same image when the size already matches.
 */
export function resizeRgba(img: RgbaImage, width: number, height: number): RgbaImage {
  if (img.width === width && img.height === height) return img;
  const src = img.data;
  const sw = img.width;
  const sh = img.height;
  const out = new Uint8Array(width * height * 4);
  const sx = sw / width;
  const sy = sh / height;
  // Horizontal sample positions are the same for every row: work them out once.
  const x0s = new Int32Array(width);
  const x1s = new Int32Array(width);
  const fxs = new Float32Array(width);
  for (let x = 0; x < width; x++) {
    const fx = Math.min(Math.max((x + 0.5) * sx - 0.5, 0), sw - 1);
    x0s[x] = Math.floor(fx) * 4;
    x1s[x] = Math.min(Math.floor(fx) + 1, sw - 1) * 4;
    fxs[x] = fx - Math.floor(fx);
  }
  let o = 0;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(Math.max((y + 0.5) * sy - 0.5, 0), sh - 1);
    const y0 = Math.floor(fy);
    const wy = fy - y0;
    const r0 = y0 * sw * 4;
    const r1 = Math.min(y0 + 1, sh - 1) * sw * 4;
    for (let x = 0; x < width; x++) {
      const wx = fxs[x];
      const a = r0 + x0s[x];
      const b = r0 + x1s[x];
      const c = r1 + x0s[x];
      const d = r1 + x1s[x];
      for (let k = 0; k < 4; k++) {
        const top = src[a + k] + (src[b + k] - src[a + k]) * wx;
        const bottom = src[c + k] + (src[d + k] - src[c + k]) * wx;
        out[o++] = top + (bottom - top) * wy + 0.5;
      }
    }
  }
  return { width, height, data: out };
}

/** Baseline JPEG (4:2:0 as jpeg-js writes it); alpha is dropped. `quality` 1-100. */
export function encodeJpeg(rgba: Uint8Array, width: number, height: number, quality = 85): Uint8Array {
  const out = jpeg.encode({ data: rgba, width, height }, quality);
  return new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.byteLength);
}

/** 8-bit RGBA PNG. */
export function encodePng(rgba: Uint8Array, width: number, height: number): Uint8Array {
  const png = new PNG({ width, height });
  png.data = Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength);
  const out = PNG.sync.write(png);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
