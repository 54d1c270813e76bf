/**
 * Sends a stored file's bytes, streamed from disk with back-pressure: the content route
 * (`application/octet-stream`, attachment) and the public URL (the upload's own type, inline for
 * pictures, video, audio and plain text, so a browser shows an image or plays a video). One
 * `Range: bytes=…` is honoured (206), as a CDN would, so a player can seek and a client can
 * resume a download; several ranges get the whole file.
 *
 * Uploaded bytes are anyone's: a public URL is opened by a browser on the sandbox's origin. So
 * every answer says `X-Content-Type-Options: nosniff` and a CSP that sandboxes the document and
 * loads nothing, and a type that can run script (HTML, SVG, XML, anything not known to be passive)
 * is sent as an attachment, never shown inline.
 */
import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { decideRange } from '../../../shared/http-range';
import { SandboxError } from '../errors';
import type { FileRecord, FileStore } from './store';

/** Headers on every answer with uploaded (or made) bytes: no type sniffing, no script, no loads. */
export const UNTRUSTED_CONTENT_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "sandbox; default-src 'none'; style-src 'unsafe-inline'",
};

/** Types a browser shows without running anything (SVG is an image that can hold script: not here). */
const PASSIVE_TYPE = /^(image\/(png|jpeg|gif|webp|avif|bmp)|video\/[\w.+-]+|audio\/[\w.+-]+|text\/plain)\s*(;|$)/i;

/** `inline` only for passive types; anything else (HTML, SVG, XML, scripts, unknown) is an attachment. */
export function publicDisposition(contentType: string): 'inline' | 'attachment' {
  return PASSIVE_TYPE.test(contentType.trim()) ? 'inline' : 'attachment';
}

/** `attachment; filename="…"; filename*=UTF-8''…` with an ASCII fallback for old clients. */
export function contentDisposition(kind: 'attachment' | 'inline', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * The byte range `[start, end]` (inclusive) a `Range` header asks of a `size`-byte file; null to
 * send everything (no header, another unit, an invalid value, several ranges); throws 416 when
 * none of it can be met. Parsed strictly (shared/http-range.ts, RFC 9110 §14).
 */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | null {
  const decision = decideRange(header, size);
  if (decision.kind === 'full') return null;
  if (decision.kind === 'unsatisfiable') {
    throw new SandboxError(416, `The range ${header} is outside the file's ${size} bytes.`, { 'content-range': `bytes */${size}` });
  }
  return { start: decision.start, end: decision.end };
}

/** Streams the file (or the requested range); a client that goes away mid-way just ends the pipeline. */
export async function sendFileBytes(
  req: IncomingMessage,
  res: ServerResponse,
  store: FileStore,
  record: FileRecord,
  how: { contentType: string; disposition: 'attachment' | 'inline' },
): Promise<void> {
  const range = byteRange(req.headers.range, record.bytes);
  // Opened before the headers so a file removed under us is a clean error, not a cut response.
  const input = createReadStream(store.pathOf(record.id), range ? { start: range.start, end: range.end } : {});
  await new Promise<void>((resolve, reject) => {
    input.once('open', () => resolve());
    input.once('error', reject);
  });
  const headers: Record<string, string | number> = {
    ...UNTRUSTED_CONTENT_HEADERS,
    'content-type': how.contentType,
    'content-disposition': contentDisposition(how.disposition, record.filename),
    'accept-ranges': 'bytes',
  };
  if (range) {
    res.writeHead(206, { ...headers, 'content-range': `bytes ${range.start}-${range.end}/${record.bytes}`, 'content-length': range.end - range.start + 1 });
  } else {
    res.writeHead(200, { ...headers, 'content-length': record.bytes });
  }
  try {
    await pipeline(input, res);
  } catch {
    // The client went away; nothing to answer.
  }
}
