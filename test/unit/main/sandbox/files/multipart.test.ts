import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundaryOf, dispositionOf, MultipartError, MultipartParser, type MultipartEvent } from '../../../../../main/sandbox/files/multipart';

interface Part {
  headers: Record<string, string>;
  body: Buffer;
}

/** Feeds `body` in pieces cut at `cuts`; returns the parts seen (bodies joined). */
function parse(boundary: string, body: Buffer, cuts: number[] = []): Part[] {
  const parser = new MultipartParser(boundary);
  const events: MultipartEvent[] = [];
  let from = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < body.length)].sort((a, b) => a - b).concat(body.length)) {
    events.push(...parser.write(body.subarray(from, cut)));
    from = cut;
  }
  parser.end();
  const parts: Part[] = [];
  for (const e of events) {
    if (e.type === 'part') parts.push({ headers: e.headers, body: Buffer.alloc(0) });
    else if (e.type === 'data') parts[parts.length - 1].body = Buffer.concat([parts[parts.length - 1].body, e.data]);
  }
  expect(events.at(-1)).toEqual({ type: 'done' });
  return parts;
}

function encode(boundary: string, parts: Array<{ name: string; body: Buffer }>): Buffer {
  const pieces: Buffer[] = [];
  for (const p of parts) {
    pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n`), p.body, Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(pieces);
}

describe('sandbox/files/multipart', () => {
  describe('MultipartParser', () => {
    it('reads parts whose bodies hold CRLFs and partial delimiters, at every chunk boundary', () => {
      const boundary = 'XyZ';
      const body = encode(boundary, [
        { name: 'a', body: Buffer.from('one --XyZ-mid-line\r\n--Xy\r\n-') },
        { name: 'file', body: Buffer.from('\r\n\r\n') },
      ]);
      for (let cut = 0; cut <= body.length; cut++) {
        const parts = parse(boundary, body, [cut]);
        expect(parts.map((p) => [p.headers['content-disposition'], p.body.toString()])).toEqual([
          ['form-data; name="a"', 'one --XyZ-mid-line\r\n--Xy\r\n-'],
          ['form-data; name="file"', '\r\n\r\n'],
        ]);
      }
    });

    it('gives back random binary parts byte for byte whatever the chunking (property)', () => {
      fc.assert(
        fc.property(
          fc.array(fc.uint8Array({ maxLength: 200 }), { minLength: 1, maxLength: 4 }),
          fc.array(fc.nat(2000), { maxLength: 8 }),
          (bodies, cuts) => {
            const boundary = '----sandbox-test-boundary';
            const parts = bodies.map((b, i) => ({ name: `p${i}`, body: Buffer.from(b) }));
            const parsed = parse(boundary, encode(boundary, parts), cuts);
            expect(parsed.map((p) => p.body.toString('hex'))).toEqual(bodies.map((b) => Buffer.from(b).toString('hex')));
          },
        ),
      );
    });

    it('skips a preamble and ignores an epilogue', () => {
      const body = Buffer.from('preamble text\r\n--b\r\nContent-Disposition: form-data; name="x"\r\n\r\nv\r\n--b--\r\nepilogue');
      expect(parse('b', body).map((p) => p.body.toString())).toEqual(['v']);
    });

    it('refuses a body cut short, a malformed header line and over-long headers', () => {
      const cut = new MultipartParser('b');
      cut.write(Buffer.from('--b\r\nContent-Disposition: form-data; name="file"\r\n\r\nsome bytes'));
      expect(() => cut.end()).toThrow('The multipart body ended in the middle of a part (no closing boundary): the upload was cut short.');
      expect(() => new MultipartParser('b').write(Buffer.from('--b\r\nno colon here\r\n\r\n'))).toThrow(
        'A multipart part has a malformed header line: "no colon here".',
      );
      expect(() => new MultipartParser('b').write(Buffer.from(`--b\r\nX: ${'a'.repeat(17_000)}`))).toThrow(MultipartError);
    });
  });

  describe('boundaryOf()', () => {
    it('reads quoted and bare boundaries and refuses other types', () => {
      expect(boundaryOf('multipart/form-data; boundary="a b"')).toBe('a b');
      expect(boundaryOf('Multipart/Form-Data; charset=utf-8; boundary=----x1')).toBe('----x1');
      expect(() => boundaryOf('application/json')).toThrow('Expected a multipart/form-data body, got Content-Type "application/json".');
      expect(() => boundaryOf(undefined)).toThrow('(the Content-Type header is missing)');
      expect(() => boundaryOf('multipart/form-data')).toThrow('no usable boundary');
    });
  });

  describe('dispositionOf()', () => {
    it('reads name and filename, preferring filename*', () => {
      expect(dispositionOf('form-data; name="file"; filename="a \\"b\\".txt"')).toEqual({ name: 'file', filename: 'a "b".txt' });
      expect(dispositionOf("form-data; name=file; filename=\"x.txt\"; filename*=UTF-8''%C3%A9t%C3%A9.txt")).toEqual({ name: 'file', filename: 'été.txt' });
      expect(dispositionOf('attachment; name="x"')).toEqual({});
    });
  });
});
