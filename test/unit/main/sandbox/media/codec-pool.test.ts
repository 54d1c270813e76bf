import jpeg from 'jpeg-js';
import { afterAll, describe, expect, it } from 'vitest';
import { CodecPool } from '../../../../../main/sandbox/media/codec-pool';
import { encodePng } from '../../../../../main/sandbox/media/image-codec';

const pool = new CodecPool();
afterAll(() => pool.close());

const pixels = (w: number, h: number, v: number) => new Uint8Array(w * h * 4).fill(v);

describe('sandbox/media/codec-pool', () => {
  it('encodes JPEG and PNG and decodes them back in workers, many at once', async () => {
    const jpegs = await Promise.all([1, 2, 3, 4, 5].map((i) => pool.encodeJpeg(pixels(64 * i, 32, 100 + i), 64 * i, 32)));
    jpegs.forEach((bytes, i) => expect(jpeg.decode(bytes, { useTArray: true }).width).toBe(64 * (i + 1)));
    const back = await pool.decode(jpegs[0], 'image/jpeg');
    expect([back.width, back.height, back.data.length]).toEqual([64, 32, 64 * 32 * 4]);
    const png = await pool.encodePng(pixels(3, 2, 7), 3, 2);
    expect(Buffer.from(png).equals(Buffer.from(encodePng(pixels(3, 2, 7), 3, 2)))).toBe(true);
    expect(Array.from((await pool.decode(png, 'image/png')).data)).toEqual(Array.from(pixels(3, 2, 7)));
  });

  it('moves the pixels to the worker, and refuses them if used again; the pool keeps working', async () => {
    await Promise.all([pool.encodeJpeg(pixels(8, 8, 1), 8, 8), pool.encodeJpeg(pixels(8, 8, 1), 8, 8)]); // both workers up
    const data = pixels(16, 16, 9);
    await pool.encodeJpeg(data, 16, 16);
    expect(data.byteLength).toBe(0);
    await expect(pool.encodeJpeg(data, 16, 16)).rejects.toThrow(/the pixels are 0 bytes; 16x16 RGBA needs 1024/);
    // A view of a pooled Buffer is copied, not moved.
    const shared = Buffer.alloc(16 * 16 * 4 + 8).subarray(8);
    await pool.encodeJpeg(shared, 16, 16);
    expect(shared.byteLength).toBe(1024);
  });

  it('runs the work inline, once, when the workers cannot load the codecs', async () => {
    const lines: string[] = [];
    const broken = new CodecPool((line) => lines.push(line), 2, { jpegJs: '/nonexistent/jpeg-js.js', pngjs: '/nonexistent/pngjs.js' });
    const outs = await Promise.all([1, 2, 3].map((v) => broken.encodeJpeg(pixels(16, 8, v * 50), 16, 8)));
    outs.forEach((bytes) => expect(jpeg.decode(bytes, { useTArray: true }).width).toBe(16));
    expect((await broken.decode(outs[0], 'image/jpeg')).height).toBe(8);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^sandbox media: codec workers unavailable \(.*\); encoding on the main thread$/);
    await broken.close();
  });

  it('reports a decode failure as an error, not a crash', async () => {
    await expect(pool.decode(new Uint8Array([0xff, 0xd8, 0xff, 0, 1, 2]), 'image/jpeg')).rejects.toThrow();
    expect((await pool.encodeJpeg(pixels(8, 8, 1), 8, 8)).length).toBeGreaterThan(100);
  });
});
