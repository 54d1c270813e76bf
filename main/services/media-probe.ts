/**
 * What a piece of media is, from its first bytes and headers alone: the type by magic bytes, and
 * the pixel size (PNG IHDR, JPEG SOF, WebP VP8/VP8L/VP8X) or, for MP4, the size and duration
 * (tkhd, mvhd). Nothing is decoded; a file is read by a few positional reads, so probing a large
 * video costs the same as probing a small one.
 */
import { open } from 'node:fs/promises';

/** What a probe found; width, height and duration are null when the header does not say. */
export interface MediaProbe {
  mime: string;
  /** How a person would name the type ("PNG", "GIF", "MP4 video"). */
  label: string;
  kind: 'image' | 'video' | 'other';
  width: number | null;
  height: number | null;
  /** Seconds (videos). */
  duration: number | null;
}

/** Positional reads over bytes in memory or a file. A read past the end returns fewer bytes. */
export interface ByteReader {
  size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** How much of the start of a file the type sniff looks at. */
const HEAD_BYTES = 64;

/** A reader over bytes already in memory. */
export function bufferReader(bytes: Uint8Array): ByteReader {
  return { size: bytes.length, read: (offset, length) => Promise.resolve(bytes.subarray(Math.min(offset, bytes.length), Math.min(offset + length, bytes.length))) };
}

interface Sniffed {
  mime: string;
  label: string;
  kind: MediaProbe['kind'];
}

const ascii = (b: Uint8Array, at: number, len: number): string => String.fromCharCode(...b.subarray(at, at + len));
const startsWith = (b: Uint8Array, sig: number[], at = 0): boolean => sig.every((v, i) => b[at + i] === v);

/** The type by magic bytes, or null when it is none this app knows by name. */
export function sniffType(head: Uint8Array): Sniffed | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: 'image/png', label: 'PNG', kind: 'image' };
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', label: 'JPEG', kind: 'image' };
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WEBP') return { mime: 'image/webp', label: 'WebP', kind: 'image' };
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return { mime: 'image/gif', label: 'GIF', kind: 'image' };
  if (ascii(head, 0, 2) === 'BM') return { mime: 'image/bmp', label: 'BMP', kind: 'image' };
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) return { mime: 'image/tiff', label: 'TIFF', kind: 'image' };
  if (ascii(head, 4, 4) === 'ftyp') {
    const brand = ascii(head, 8, 4);
    if (['heic', 'heix', 'hevc', 'heim', 'heis', 'mif1', 'msf1'].includes(brand)) return { mime: 'image/heic', label: 'HEIC', kind: 'image' };
    if (brand === 'avif' || brand === 'avis') return { mime: 'image/avif', label: 'AVIF', kind: 'image' };
    if (brand === 'qt  ') return { mime: 'video/quicktime', label: 'QuickTime (.mov) video', kind: 'video' };
    return { mime: 'video/mp4', label: 'MP4 video', kind: 'video' };
  }
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'AVI ') return { mime: 'video/x-msvideo', label: 'AVI video', kind: 'video' };
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return { mime: 'video/webm', label: 'WebM video', kind: 'video' };
  if (ascii(head, 0, 5) === '%PDF-') return { mime: 'application/pdf', label: 'PDF', kind: 'other' };
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return { mime: 'application/zip', label: 'ZIP archive', kind: 'other' };
  return null;
}

/** Probes bytes in memory; null when the type is unknown. */
export function probeBytes(bytes: Uint8Array): Promise<MediaProbe | null> {
  return probe(bufferReader(bytes));
}

/** Probes the file at `path` with a few positional reads; null when the type is unknown. */
export async function probeFile(path: string): Promise<MediaProbe | null> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    return await probe({
      size,
      read: async (offset, length) => {
        const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
        if (buffer.length === 0) return buffer;
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
        return buffer.subarray(0, bytesRead);
      },
    });
  } finally {
    await handle.close();
  }
}

/** The type and, where the header says, the size and duration. */
export async function probe(reader: ByteReader): Promise<MediaProbe | null> {
  const head = await reader.read(0, HEAD_BYTES);
  const type = sniffType(head);
  if (!type) return null;
  const none = { width: null, height: null, duration: null };
  let dims: Pick<MediaProbe, 'width' | 'height' | 'duration'> | null = null;
  try {
    if (type.mime === 'image/png') dims = pngSize(head);
    else if (type.mime === 'image/jpeg') dims = await jpegSize(reader);
    else if (type.mime === 'image/webp') dims = webpSize(await reader.read(0, 40));
    else if (type.mime === 'image/gif') dims = { width: u16le(head, 6), height: u16le(head, 8), duration: null };
    else if (type.mime === 'video/mp4' || type.mime === 'video/quicktime') dims = await mp4Info(reader);
  } catch {
    dims = null;
  }
  return { ...type, ...none, ...(dims ?? {}) };
}

const u16le = (b: Uint8Array, at: number): number => b[at] | (b[at + 1] << 8);
const u16be = (b: Uint8Array, at: number): number => (b[at] << 8) | b[at + 1];
const u24le = (b: Uint8Array, at: number): number => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);
const u32be = (b: Uint8Array, at: number): number => ((b[at] << 24) >>> 0) + ((b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]);
const u64be = (b: Uint8Array, at: number): number => u32be(b, at) * 2 ** 32 + u32be(b, at + 4);

function pngSize(head: Uint8Array): MediaProbe | null {
  if (head.length < 24 || ascii(head, 12, 4) !== 'IHDR') return null;
  return sized(u32be(head, 16), u32be(head, 20));
}

function sized(width: number, height: number, duration: number | null = null): MediaProbe | null {
  return width > 0 && height > 0 ? ({ width, height, duration } as MediaProbe) : null;
}

/** Walks the JPEG's segments to the first start-of-frame (SOF0–SOF15 but DHT, JPG, DAC). */
async function jpegSize(reader: ByteReader): Promise<MediaProbe | null> {
  let at = 2;
  for (let guard = 0; guard < 1000 && at + 4 <= reader.size; guard++) {
    const marker = await reader.read(at, 10);
    if (marker.length < 4 || marker[0] !== 0xff) return null;
    const code = marker[1];
    if (code === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (code === 0xd8 || code === 0x01 || (code >= 0xd0 && code <= 0xd7)) {
      at += 2;
      continue;
    }
    if (code === 0xd9 || code === 0xda) return null; // end of image / start of scan before a frame
    const length = u16be(marker, 2);
    if (code >= 0xc0 && code <= 0xcf && code !== 0xc4 && code !== 0xc8 && code !== 0xcc) {
      if (marker.length < 9) return null;
      return sized(u16be(marker, 7), u16be(marker, 5));
    }
    at += 2 + length;
  }
  return null;
}

function webpSize(b: Uint8Array): MediaProbe | null {
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ') {
    // Key frame start code 9d 01 2a, then 14-bit width and height.
    if (!startsWith(b, [0x9d, 0x01, 0x2a], 23)) return null;
    return sized(u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
  }
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return null;
    const bits = b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24);
    return sized((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') return sized(u24le(b, 24) + 1, u24le(b, 27) + 1);
  return null;
}

interface Box {
  type: string;
  /** Where the box's content starts and ends. */
  start: number;
  end: number;
}

/** The boxes directly inside [start, end). */
async function boxes(reader: ByteReader, start: number, end: number): Promise<Box[]> {
  const out: Box[] = [];
  let at = start;
  while (at + 8 <= end && out.length < 10_000) {
    const h = await reader.read(at, 16);
    if (h.length < 8) break;
    let size = u32be(h, 0);
    let header = 8;
    if (size === 1) {
      if (h.length < 16) break;
      size = u64be(h, 8);
      header = 16;
    } else if (size === 0) size = end - at;
    if (size < header) break;
    out.push({ type: ascii(h, 4, 4), start: at + header, end: Math.min(at + size, end) });
    at += size;
  }
  return out;
}

/** Duration from moov/mvhd; size from the first track header (tkhd) with a picture. */
async function mp4Info(reader: ByteReader): Promise<MediaProbe | null> {
  const moov = (await boxes(reader, 0, reader.size)).find((b) => b.type === 'moov');
  if (!moov) return null;
  let duration: number | null = null;
  let width = 0;
  let height = 0;
  for (const box of await boxes(reader, moov.start, moov.end)) {
    if (box.type === 'mvhd') {
      const b = await reader.read(box.start, 32);
      const v1 = b[0] === 1;
      const timescale = u32be(b, v1 ? 20 : 12);
      const units = v1 ? u64be(b, 24) : u32be(b, 16);
      if (timescale > 0) duration = Math.round((units / timescale) * 1000) / 1000;
    } else if (box.type === 'trak' && width === 0) {
      const tkhd = (await boxes(reader, box.start, box.end)).find((b) => b.type === 'tkhd');
      if (!tkhd) continue;
      const b = await reader.read(tkhd.start, 96);
      const at = b[0] === 1 ? 88 : 76;
      // 16.16 fixed point; audio tracks say 0 x 0.
      width = Math.round(u32be(b, at) / 65536);
      height = Math.round(u32be(b, at + 4) / 65536);
    }
  }
  return { width: width || null, height: height || null, duration } as MediaProbe;
}
