/**
 * Reads a whole (non-stream) response body as text, decoded (body-decode.ts) and bounded: at most
 * `cap` bytes are read and kept, then the rest of the body is cancelled (the socket closed) rather
 * than downloaded and thrown away. Used for error bodies and plain JSON answers.
 */
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { decodeBody } from './body-decode';
import type { LimitNotice, ResponseLimits } from './limits';

/** What was read: the text (the head only when `truncated`), and the body's full size when known. */
export interface BoundedText {
  text: string;
  truncated: boolean;
  /** Content-Length of a plain body, or the bytes read when the body ended within the cap; else null. */
  totalBytes: number | null;
}

/**
 * Reads `body` up to `cap` decoded bytes. Throws what decodeBody throws (BodyDecodeError,
 * BodyLimitError) and what the socket throws; the body is closed whichever way it ends.
 */
export async function readBoundedText(
  body: Readable,
  headers: Record<string, string>,
  cap: number,
  limits: ResponseLimits,
): Promise<BoundedText> {
  const decoded = decodeBody(body, headers['content-encoding'], limits);
  const declared = Number(headers['content-length']);
  // Content-Length counts the encoded bytes: it is the body's size only when sent plain.
  const plainLength = decoded.encodings.length === 0 && headers['content-length'] !== undefined && Number.isFinite(declared) ? declared : null;
  const text = new StringDecoder('utf8');
  const parts: string[] = [];
  let read = 0;
  try {
    for await (const chunk of decoded.chunks) {
      const room = cap - read;
      if (chunk.byteLength > room) {
        parts.push(text.write(Buffer.from(chunk.buffer, chunk.byteOffset, room)));
        return { text: parts.join(''), truncated: true, totalBytes: plainLength };
      }
      read += chunk.byteLength;
      parts.push(text.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
    }
    parts.push(text.end());
    return { text: parts.join(''), truncated: false, totalBytes: read };
  } finally {
    decoded.close();
  }
}

/** Spreads `{ notices }` only when there are some, so results without a cap hit look as before. */
export function noticesOf(notices: LimitNotice[] | undefined): { notices?: LimitNotice[] } {
  return notices && notices.length > 0 ? { notices } : {};
}

/** JSON.parse as a value: a body that is not JSON is not an exception. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
