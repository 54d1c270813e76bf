import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import {
  decodeImage,
  encodeJpeg,
  encodePng,
  ImageDecodeError,
  imageSize,
  resizeRgba,
  sniffImageMime,
  sniffMime,
} from '../../../../../main/sandbox/media/image-codec';

function solid(width: number, height: number, rgb: [number, number, number]): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set([...rgb, 255], i);
  return data;
}

/** A minimal VP8L (lossless WebP) header for a given size: enough for the header parser. */
function webpLossless(width: number, height: number): Uint8Array {
  const b = new Uint8Array(40);
  b.set(Buffer.from('RIFF'), 0);
  b.set(Buffer.from('WEBP'), 8);
  b.set(Buffer.from('VP8L'), 12);
  b[20] = 0x2f;
  const bits = (width - 1) | ((height - 1) << 14);
  b[21] = bits & 0xff;
  b[22] = (bits >>> 8) & 0xff;
  b[23] = (bits >>> 16) & 0xff;
  b[24] = (bits >>> 24) & 0xff;
  return b;
}

describe('image codec', () => {
  it('encodes a JPEG that jpeg-js decodes to the same size and colour', () => {
    const bytes = encodeJpeg(solid(64, 40, [200, 30, 30]), 64, 40, 90);
    expect(sniffImageMime(bytes)).toBe('image/jpeg');
    expect(imageSize(bytes)).toEqual({ width: 64, height: 40, mime: 'image/jpeg' });
    const back = jpeg.decode(bytes, { useTArray: true });
    expect([back.width, back.height]).toEqual([64, 40]);
    expect(Math.abs(back.data[0] - 200)).toBeLessThan(8);
    const ours = decodeImage(bytes);
    expect(ours).toMatchObject({ width: 64, height: 40, mime: 'image/jpeg', standIn: false });
  });

  it('round-trips a PNG exactly', () => {
    const rgba = solid(3, 2, [1, 2, 3]);
    rgba[7] = 128;
    const bytes = encodePng(rgba, 3, 2);
    expect(sniffMime(bytes)).toBe('image/png');
    expect(imageSize(bytes)).toEqual({ width: 3, height: 2, mime: 'image/png' });
    expect(PNG.sync.read(Buffer.from(bytes)).width).toBe(3);
    const back = decodeImage(bytes);
    expect(Array.from(back.data)).toEqual(Array.from(rgba));
  });

  it('reads WebP sizes from the header and gives a deterministic stand-in', () => {
    const a = webpLossless(300, 200);
    expect(imageSize(a)).toEqual({ width: 300, height: 200, mime: 'image/webp' });
    const d1 = decodeImage(a);
    expect(d1).toMatchObject({ width: 300, height: 200, mime: 'image/webp', standIn: true });
    expect(d1.data.length).toBe(300 * 200 * 4);
    expect(Buffer.from(decodeImage(a).data).equals(Buffer.from(d1.data))).toBe(true);
    const vp8x = new Uint8Array(40);
    vp8x.set(Buffer.from('RIFF'), 0);
    vp8x.set(Buffer.from('WEBPVP8X'), 8);
    vp8x.set([0x1f, 0x03, 0x00, 0xff, 0x01, 0x00], 24); // 800 x 512
    expect(imageSize(vp8x)).toEqual({ width: 800, height: 512, mime: 'image/webp' });
  });

  it('names what other bytes are', () => {
    expect(sniffMime(Buffer.from('GIF89a......'))).toBe('image/gif');
    expect(sniffMime(Buffer.from('\0\0\0\x18ftypisom\0\0\0\0'))).toBe('video/mp4');
    expect(sniffMime(Buffer.from('hello'))).toBeNull();
    expect(() => decodeImage(Buffer.from('GIF89a......'))).toThrow(/image\/gif/);
    expect(() => decodeImage(Buffer.from('hello world'))).toThrow(ImageDecodeError);
    const broken = encodeJpeg(solid(16, 16, [0, 0, 0]), 16, 16).slice(0, 200);
    expect(() => decodeImage(broken)).toThrow(ImageDecodeError);
  });

  it('resizes bilinearly, keeping a solid colour and a left-right split', () => {
    const src = solid(4, 4, [10, 20, 30]);
    const up = resizeRgba({ width: 4, height: 4, data: src }, 9, 7);
    expect([up.width, up.height, up.data.length]).toEqual([9, 7, 9 * 7 * 4]);
    expect(Array.from(up.data.subarray(0, 4))).toEqual([10, 20, 30, 255]);
    const split = new Uint8Array(2 * 1 * 4);
    split.set([0, 0, 0, 255, 255, 255, 255, 255]);
    const wide = resizeRgba({ width: 2, height: 1, data: split }, 8, 1);
    expect(wide.data[0]).toBe(0);
    expect(wide.data[7 * 4]).toBe(255);
    expect(wide.data[3 * 4]).toBeGreaterThan(0);
    expect(wide.data[3 * 4]).toBeLessThan(255);
  });
});
