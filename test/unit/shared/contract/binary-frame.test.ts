import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBinaryFrame, encodeBinaryFrame, hasBytes } from '../../../../shared/contract/binary-frame';

/** Keys a message may use: any string but `__proto__`, which encoding refuses (tested apart). */
const key = fc.string().filter((k) => k !== '__proto__');

/** JSON-ish values with Uint8Arrays anywhere below the top level (messages are objects). */
const { message } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n)),
    fc.string(),
    fc.uint8Array({ maxLength: 64 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
  message: fc.dictionary(key, tie('value'), { maxKeys: 5 }),
}));

/** A frame from raw parts: header JSON text and trailing bytes. */
function frame(header: string, tail: number[] = []): Uint8Array {
  const head = new TextEncoder().encode(header);
  const out = new Uint8Array(4 + head.byteLength + tail.length);
  new DataView(out.buffer).setUint32(0, head.byteLength);
  out.set(head, 4);
  out.set(tail, 4 + head.byteLength);
  return out;
}

describe('binary-frame', () => {
  describe('encodeBinaryFrame() / decodeBinaryFrame()', () => {
    it('round-trips any message, bytes included', () => {
      fc.assert(
        fc.property(message, (m) => {
          expect(decodeBinaryFrame(encodeBinaryFrame(m))).toEqual(m);
        }),
      );
    });

    it('refuses a __proto__ key by name instead of dropping it', () => {
      const withProto = JSON.parse('{"t":"send","message":{"seq":1,"__proto__":{"x":1}}}') as Record<string, unknown>;
      (withProto.message as Record<string, unknown>).data = new Uint8Array([1]);
      expect(() => encodeBinaryFrame(withProto)).toThrow('The message uses the key "__proto__", which is not allowed; rename it.');
    });

    it('lays out [u32 header length][JSON header with null placeholders and byte paths][raw bytes]', () => {
      const encoded = encodeBinaryFrame({ t: 'call', input: { seq: 1, data: new Uint8Array([7, 8]), more: [new Uint8Array([9])] } });
      const length = new DataView(encoded.buffer).getUint32(0);
      const header = JSON.parse(new TextDecoder().decode(encoded.subarray(4, 4 + length)));
      expect(header).toEqual({
        m: { t: 'call', input: { seq: 1, data: null, more: [null] } },
        b: [
          [['input', 'data'], 2],
          [['input', 'more', 0], 1],
        ],
      });
      expect([...encoded.subarray(4 + length)]).toEqual([7, 8, 9]);
    });

    it('decodes from a view into a larger buffer', () => {
      const encoded = encodeBinaryFrame({ data: new Uint8Array([1, 2, 3]) });
      const padded = new Uint8Array(encoded.byteLength + 10);
      padded.set(encoded, 5);
      expect(decodeBinaryFrame(padded.subarray(5, 5 + encoded.byteLength))).toEqual({ data: new Uint8Array([1, 2, 3]) });
    });

    it.each([
      ['a frame shorter than its length prefix', new Uint8Array([0, 0]), /too short/],
      ['a header length beyond the frame', new Uint8Array([0, 0, 0, 9, 1]), /header is longer/],
      ['a header that is not JSON', frame('{nope'), /not UTF-8 JSON/],
      ['a header without a byte list', frame('{"m":{}}'), /no byte list/],
      ['bytes the header does not name', frame('{"m":{},"b":[]}', [1]), /does not name/],
      ['a byte length beyond the frame', frame('{"m":{"d":null},"b":[[["d"],5]]}', [1]), /does not match/],
      ['a path to a slot that is not a placeholder', frame('{"m":{"d":1},"b":[[["d"],1]]}', [1]), /does not match/],
      ['a path to a missing slot', frame('{"m":{},"b":[[["d"],1]]}', [1]), /does not match/],
      ['a path through __proto__', frame('{"m":{"__proto__":null},"b":[[["__proto__"],1]]}', [1]), /does not match/],
      ['an empty path', frame('{"m":null,"b":[[[],1]]}', [1]), /does not match/],
    ])('refuses %s', (_name, bad, message) => {
      expect(() => decodeBinaryFrame(bad)).toThrow(message);
    });
  });

  describe('hasBytes()', () => {
    it('finds a Uint8Array at any depth, and nothing in plain data', () => {
      expect(hasBytes({ a: [{ b: Buffer.from('x') }] })).toBe(true);
      expect(hasBytes({ a: [{ b: 'x' }], c: null })).toBe(false);
    });
  });
});
