import { describe, expect, it } from 'vitest';
import { decodeAlaw, decodeMulaw, encodeAlaw, encodeMulaw } from '../../../../shared/audio/g711';

// An independent ITU-T G.711 implementation, transcribed from the ITU's reference software
// (ITU-T G.191 STL, g711.c: alaw_compress/alaw_expand/ulaw_compress/ulaw_expand), used to build the
// reference tables the wrapper must match bit for bit.
function g191AlawCompress(x: number): number {
  let ix = x < 0 ? ~x >> 4 : x >> 4; // 13-bit magnitude, one's complement for negatives
  if (ix > 15) {
    let exp = 1;
    while (ix > 16 + 15) {
      ix >>= 1;
      exp++;
    }
    ix -= 16;
    ix += exp << 4;
  }
  if (x >= 0) ix |= 0x80;
  return ix ^ 0x55; // even bits inverted
}
function g191AlawExpand(code: number): number {
  const ix = (code ^ 0x55) & 0x7f;
  const exp = ix >> 4;
  let mant = ix & 0x0f;
  if (exp > 0) mant += 16;
  mant = (mant << 4) + 8;
  if (exp > 1) mant <<= exp - 1;
  return code > 127 ? mant : -mant;
}
function g191UlawCompress(x: number): number {
  let absno = x < 0 ? (~x >> 2) + 33 : (x >> 2) + 33; // 14-bit magnitude plus the bias of 33
  if (absno > 0x1fff) absno = 0x1fff;
  let i = absno >> 6;
  let segno = 1;
  while (i !== 0) {
    segno++;
    i >>= 1;
  }
  const high = 8 - segno;
  const low = 15 - ((absno >> segno) & 0x0f);
  let out = (high << 4) | low;
  if (x >= 0) out |= 0x80;
  return out;
}
function g191UlawExpand(code: number): number {
  const sign = code < 0x80 ? -1 : 1;
  let mant = ~code;
  const exp = (mant >> 4) & 0x07;
  const segno = exp + 1;
  mant &= 0x0f;
  const step = 4 << segno;
  return sign * ((0x80 << exp) + step * mant + step / 2 - 4 * 33);
}

const EVERY_SAMPLE = Int16Array.from({ length: 65536 }, (_, i) => i - 32768);
const EVERY_CODE = Uint8Array.from({ length: 256 }, (_, i) => i);

describe('g711', () => {
  describe.each([
    ['µ-law', encodeMulaw, decodeMulaw, g191UlawCompress, g191UlawExpand],
    ['A-law', encodeAlaw, decodeAlaw, g191AlawCompress, g191AlawExpand],
  ] as const)('%s', (_name, encode, decode, refCompress, refExpand) => {
    it('encodes every 16-bit sample exactly as the ITU-T reference does', () => {
      const expected = Uint8Array.from(EVERY_SAMPLE, refCompress);
      expect(encode(EVERY_SAMPLE)).toEqual(expected);
    });

    it('decodes every code exactly as the ITU-T reference does', () => {
      const expected = Int16Array.from(EVERY_CODE, refExpand);
      expect(decode(EVERY_CODE)).toEqual(expected);
    });

    it('re-encodes each decoded value to its own code (one code per level, except µ-law -0)', () => {
      const again = encode(decode(EVERY_CODE));
      const differing = [...EVERY_CODE].filter((code) => again[code] !== code);
      // µ-law has two zeros (0x7f = -0 and 0xff = +0); a decoded 0 encodes as +0.
      expect(differing).toEqual(_name === 'µ-law' ? [0x7f] : []);
    });

    it('keeps the error of a round trip within half a quantisation step', () => {
      const back = decode(encode(EVERY_SAMPLE));
      let worst = 0;
      for (let i = 0; i < EVERY_SAMPLE.length; i++) {
        const x = EVERY_SAMPLE[i];
        const error = Math.abs(back[i] - x);
        // Steps double with each segment: the error is bounded by the step at that magnitude (plus clipping at the top).
        const magnitude = Math.min(Math.abs(x), 32000);
        worst = Math.max(worst, error / Math.max(16, magnitude / 16));
      }
      expect(worst).toBeLessThanOrEqual(1);
    });

    it('returns empty arrays for empty input', () => {
      expect(encode(new Int16Array(0))).toEqual(new Uint8Array(0));
      expect(decode(new Uint8Array(0))).toEqual(new Int16Array(0));
    });
  });
});
