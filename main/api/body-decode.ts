/**
 * Content-Encoding for response bodies: undici's `request()` hands over the bytes as sent, so a
 * proxy's gzip reached the SSE parser as binary. gzip, deflate and br are decoded here, streaming
 * (Node zlib, pulled as the reader asks, so nothing is inflated ahead of the reader), and guarded
 * against decompression bombs: a body that expands past the ratio in `ResponseLimits` stops with
 * a BodyLimitError. The per-kind caps (error body, JSON body, one SSE event) apply to the decoded
 * bytes, in body-read.ts and sse.ts.
 */
import { Readable, pipeline, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import { BodyLimitError, decompressionNotice, type ResponseLimits } from './limits';

/** The body's encoding is unknown or its bytes do not decode: the service's fault, a `protocol` error. */
export class BodyDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BodyDecodeError';
  }
}

/** A body as the reader sees it: decoded chunks, and a way to stop reading (closes the socket). */
export interface DecodedBody {
  chunks: AsyncIterable<Uint8Array>;
  /** The encodings as listed in Content-Encoding (identity removed); empty when sent plain. */
  encodings: string[];
  close(): void;
}

const SUPPORTED = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

/** Stops a stream nobody reads any more; undici reports its own abort as an error, expected here. */
function discard(stream: Readable | Transform | null): void {
  if (!stream || stream.destroyed) return;
  stream.on('error', () => undefined);
  stream.destroy();
}

/** `Content-Encoding: gzip, br` -> ['gzip', 'br'] (applied in that order, so undone in reverse). */
export function contentEncodings(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '' && e !== 'identity');
}

/**
 * "deflate" means the zlib format (RFC 9110), but some servers send raw deflate; the first two
 * bytes tell them apart (a zlib header: method 8, window <= 32 KiB, and a multiple of 31).
 */
function isZlibHeader(first: Uint8Array | undefined): boolean {
  if (!first || first.byteLength < 2) return true;
  const [cmf, flg] = [first[0]!, first[1]!];
  return (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | flg) % 31 === 0;
}

function decoderFor(encoding: string, first: Uint8Array | undefined): Transform {
  if (encoding === 'br') return createBrotliDecompress();
  if (encoding === 'deflate') return isZlibHeader(first) ? createInflate() : createInflateRaw();
  return createGunzip();
}

/** Why a decoder failed, in words (zlib's own message names the problem: "incorrect header check"). */
function decodeFailure(encodings: string[], e: unknown): BodyDecodeError {
  const why = e instanceof Error ? e.message : String(e);
  return new BodyDecodeError(`The service's ${encodings.join(', ')} body could not be decoded (${why}).`);
}

/**
 * The body of `source` decoded per `contentEncoding`. Throws BodyDecodeError (before reading) for
 * an encoding it cannot decode. Iterating the chunks throws BodyDecodeError for corrupt bytes and
 * BodyLimitError for a decompression bomb; a source error (a dropped connection) is thrown as is.
 */
export function decodeBody(source: Readable, contentEncoding: string | undefined, limits: ResponseLimits): DecodedBody {
  const encodings = contentEncodings(contentEncoding);
  if (encodings.length === 0) {
    return { chunks: source as AsyncIterable<Uint8Array>, encodings, close: () => discard(source) };
  }
  const unknown = encodings.find((e) => !SUPPORTED.has(e));
  if (unknown) {
    discard(source);
    throw new BodyDecodeError(`The service sent its answer encoded as "${unknown}", which the workbench cannot decode (it reads gzip, deflate and br).`);
  }
  let encoded = 0;
  let last: Transform | null = null;
  async function* counted(first: Uint8Array | undefined, rest: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
    if (first) {
      encoded += first.byteLength;
      yield first;
    }
    for (;;) {
      const next = await rest.next();
      if (next.done) return;
      encoded += next.value.byteLength;
      yield next.value;
    }
  }
  async function* decoded(): AsyncGenerator<Uint8Array> {
    const it = (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    // The first chunk decides raw vs zlib deflate (when deflate was applied last); it is passed on unchanged.
    const head = await it.next();
    const first = head.done ? undefined : head.value;
    const decoders = [...encodings].reverse().map((e, i) => decoderFor(e, i === 0 ? first : undefined));
    let decodeError: unknown = null;
    for (const d of decoders) d.once('error', (e) => (decodeError ??= e));
    // pipeline() destroys every stage when one fails or the reader stops.
    last = pipeline([Readable.from(counted(first, it), { objectMode: false }), ...decoders], () => {}) as unknown as Transform;
    let out = 0;
    try {
      for await (const chunk of last as AsyncIterable<Uint8Array>) {
        out += chunk.byteLength;
        if (out > limits.bombMinBytes && out > limits.bombRatio * encoded) {
          throw new BodyLimitError(decompressionNotice(encodings.join(', '), out, encoded, limits.bombRatio));
        }
        yield chunk;
      }
    } catch (e) {
      if (e instanceof BodyLimitError) throw e;
      // A decoder's own error is the service's bytes; anything else (the socket) is passed on.
      if (decodeError !== null && e === decodeError) throw decodeFailure(encodings, e);
      throw e;
    } finally {
      discard(last);
      discard(source);
    }
  }
  return {
    chunks: decoded(),
    encodings,
    close: () => {
      discard(last);
      discard(source);
    },
  };
}
