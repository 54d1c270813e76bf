/**
 * Input pictures are checked before decoding (issue 14, item 23): a header that claims far more
 * than the file holds, or image data that inflates past what the header needs, costs nothing.
 */
import { deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { checkImageInput, pngInflatedSize } from '../../../../../main/sandbox/media/image-check';
import { encodeJpeg } from '../../../../../main/sandbox/media/image-codec';
import { DecodeGate } from '../../../../../main/sandbox/media/decode-gate';
import { CodecPool } from '../../../../../main/sandbox/media/codec-pool';
import { SandboxError } from '../../../../../main/sandbox/errors';
import { useHarness } from '../harness';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
function ihdr(width: number, height: number, colourType = 6, interlace = 0): Buffer {
  const d = Buffer.alloc(13);
  d.writeUInt32BE(width, 0);
  d.writeUInt32BE(height, 4);
  d[8] = 8;
  d[9] = colourType;
  d[12] = interlace;
  return chunk('IHDR', d);
}
/** A PNG built by hand: its IDAT is `raw` deflated, whatever the header says. */
function handPng(width: number, height: number, raw: Buffer, opts: { colourType?: number; interlace?: number; iend?: boolean } = {}): Buffer {
  return Buffer.concat([
    SIGNATURE,
    ihdr(width, height, opts.colourType ?? 6, opts.interlace ?? 0),
    chunk('IDAT', deflateSync(raw)),
    ...(opts.iend === false ? [] : [chunk('IEND', Buffer.alloc(0))]),
  ]);
}

/** 69 bytes claiming 10000x5000: a header, 4 bytes of image data, an end. */
const TINY_HUGE_PNG = handPng(10000, 5000, Buffer.alloc(4));
/** 61 bytes, as the probe's: the same with its zlib stream cut to 4 bytes. */
const CUT_HUGE_PNG = Buffer.concat([SIGNATURE, ihdr(10000, 5000), chunk('IDAT', deflateSync(Buffer.alloc(100)).subarray(0, 4)), chunk('IEND', Buffer.alloc(0))]);

async function refusalOf(bytes: Uint8Array): Promise<string> {
  try {
    await checkImageInput(bytes, 'image.url');
  } catch (err) {
    expect(err).toBeInstanceOf(SandboxError);
    expect((err as SandboxError).status).toBe(400);
    return (err as Error).message;
  }
  throw new Error('accepted');
}

describe('input pictures checked before decoding', () => {
  it('refuses a 61-byte PNG whose header claims 10000x5000', async () => {
    expect(TINY_HUGE_PNG.length).toBe(69);
    expect(await refusalOf(TINY_HUGE_PNG)).toBe(
      'image.url is a PNG cut short or damaged: its image data holds 4 of the 200,005,000 bytes its size needs; send the whole file',
    );
    expect(CUT_HUGE_PNG.length).toBe(61);
    expect(await refusalOf(CUT_HUGE_PNG)).toBe('image.url is a PNG cut short or damaged: its image data does not inflate; send the whole file');
  });

  it('refuses image data that inflates past what the header needs (a zlib bomb), interlaced or not', async () => {
    const bomb = Buffer.alloc(20 * 1024 * 1024);
    for (const interlace of [0, 1]) {
      const png = handPng(100, 100, bomb, { interlace });
      expect(png.length).toBeLessThan(30_000);
      expect(await refusalOf(png)).toMatch(/^image\.url is a PNG whose image data inflates to more than the [\d,]+ bytes its size needs \(a zlib bomb\?\)/);
    }
  });

  it('refuses a PNG cut anywhere, or without its end', async () => {
    const good = PNG.sync.write(Object.assign(new PNG({ width: 40, height: 30 }), {}));
    for (const at of [20, 40, good.length - 20, good.length - 5]) expect(await refusalOf(good.subarray(0, at))).toMatch(/cut short/);
    expect(await refusalOf(handPng(4, 4, Buffer.alloc(4 * 17), { iend: false }))).toMatch(/ends before its IEND chunk/);
  });

  it('refuses a JPEG cut short, or whose header claims far more than its data', async () => {
    const jpeg = encodeJpeg(new Uint8Array(64 * 48 * 4).fill(120), 64, 48, 80);
    expect(await refusalOf(jpeg.subarray(0, Math.floor(jpeg.length * 0.6)))).toMatch(/is a JPEG cut short or damaged/);
    // The same file with a frame header saying 10000x5000.
    const liar = Buffer.from(jpeg);
    const sof = liar.indexOf(Buffer.from([0xff, 0xc0]));
    liar.writeUInt16BE(5000, sof + 5);
    liar.writeUInt16BE(10000, sof + 7);
    expect(await refusalOf(liar)).toMatch(/its 10000x5000 pixels need at least [\d,]+ bytes of image data; it has [\d,]+/);
  });

  it('refuses more than 50 megapixels by the header alone', async () => {
    expect(await refusalOf(handPng(10000, 5001, Buffer.alloc(0)))).toBe('image.url is 10000x5001 pixels; inputs may have at most 50 megapixels (50,000,000 pixels)');
  });

  it('accepts whole pictures: PNG of each colour type, interlaced, JPEG', async () => {
    const rgba = PNG.sync.write(new PNG({ width: 33, height: 17 }));
    expect(await checkImageInput(rgba, 'x')).toEqual({ width: 33, height: 17, mime: 'image/png' });
    for (const [colourType, channels] of [[0, 1], [2, 3], [4, 2], [6, 4]]) {
      const raw = Buffer.alloc(9 * (1 + 7 * channels));
      expect(await checkImageInput(handPng(7, 9, raw, { colourType }), 'x')).toMatchObject({ width: 7, height: 9 });
    }
    // Interlaced, made by ImageMagick (fixtures would be the same bytes): Adam7 sizes add up.
    expect(pngInflatedSize(8, 8, 8, true)).toBe(79);
    expect(pngInflatedSize(1, 1, 32, true)).toBe(5);
    const interlaced = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAUAAAADEAIAAAHzw756AAAAJElEQVQI12P4/5+BgYGBAYViRBKBAkZkLoo8YwMDA0MDAy4AAHYCDPms+7ciAAAAAElFTkSuQmCC', 'base64');
    expect(PNG.sync.read(interlaced)).toMatchObject({ width: 5, height: 3, interlace: true });
    expect(await checkImageInput(interlaced, 'x')).toEqual({ width: 5, height: 3, mime: 'image/png' });
    expect(await checkImageInput(encodeJpeg(new Uint8Array(50 * 20 * 4), 50, 20), 'x')).toEqual({ width: 50, height: 20, mime: 'image/jpeg' });
  });
});

describe('decodes at once are capped by pixels', () => {
  it('lets a picture wait while others hold too many pixels, first come first served', async () => {
    const gate = new DecodeGate(100);
    const order: string[] = [];
    let peak = 0;
    const job = (name: string, pixels: number, ms: number) =>
      gate.run(pixels, async () => {
        peak = Math.max(peak, gate.pixelsInUse);
        order.push(`start ${name}`);
        await new Promise((r) => setTimeout(r, ms));
        order.push(`end ${name}`);
      });
    await Promise.all([job('a', 60, 30), job('b', 60, 10), job('c', 30, 10), job('huge', 1e9, 5)]);
    expect(peak).toBeLessThanOrEqual(100);
    expect(order.indexOf('start b')).toBeGreaterThan(order.indexOf('end a'));
    // c fits beside a, but waits its turn behind b.
    expect(order.indexOf('start c')).toBeGreaterThan(order.indexOf('start b'));
    expect(order.indexOf('start huge')).toBeGreaterThan(Math.max(order.indexOf('end b'), order.indexOf('end c')));
  });

  it('the codec pool decodes through its gate and hands back only what covers the output', async () => {
    const pool = new CodecPool();
    try {
      const big = PNG.sync.write(new PNG({ width: 400, height: 300 }));
      const seen: number[] = [];
      const decoding = pool.decode(big, 'image/png', { width: 100, height: 50 });
      seen.push(pool.gate.pixelsInUse);
      const img = await decoding;
      expect(seen).toEqual([120_000]);
      expect(pool.gate.pixelsInUse).toBe(0);
      // 400x300 scaled to cover 100x50: 100x75.
      expect({ width: img.width, height: img.height, bytes: img.data.byteLength }).toEqual({ width: 100, height: 75, bytes: 100 * 75 * 4 });
      const same = await pool.decode(big, 'image/png');
      expect([same.width, same.height]).toEqual([400, 300]);
    } finally {
      await pool.close();
    }
  });
});

describe('the image and video endpoints refuse such inputs at once', () => {
  const h = useHarness();
  const url = (bytes: Uint8Array) => `data:image/png;base64,${Buffer.from(bytes).toString('base64')}`;
  // 2000x2000 claimed over 4 bytes of data: pngjs would fill 16 MB of zeros and draw it.
  const liar = handPng(2000, 2000, Buffer.alloc(4));
  const bomb = handPng(64, 64, Buffer.alloc(8 * 1024 * 1024), { interlace: 1 });

  it('images/edits: 400 naming the field', async () => {
    for (const [bytes, message] of [
      [liar, /^image\.url is a PNG cut short or damaged: its image data holds 4 of the 16,002,000 bytes its size needs/],
      [bomb, /^images\[1\]\.url is a PNG whose image data inflates to more than/],
    ] as const) {
      const body = bytes === liar ? { image: { url: url(bytes) } } : { images: [{ url: url(PNG.sync.write(new PNG({ width: 8, height: 8 }))) }, { url: url(bytes) }] };
      const res = await h.post('/v1/images/edits', { prompt: 'circles', ...body });
      const got = (await res.json()) as { error: string };
      expect(res.status).toBe(400);
      expect(got.error).toMatch(message);
    }
  });

  it('videos/generations: 400 at create, before anything is queued', async () => {
    const res = await h.post('/v1/videos/generations', { image: { url: url(liar) }, duration: 1, resolution: '480p' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/^image\.url is a PNG cut short or damaged/);
  });
});
