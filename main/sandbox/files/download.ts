/**
 * Sends a stored file's bytes, streamed from disk with back-pressure: the content route
 * (`application/octet-stream`, attachment) and the public URL (the upload's own type, inline, so
 * a browser shows an image or plays a video). One `Range: bytes=…` is honoured (206), as a CDN
 * would, so a player can seek and a client can resume a download; several ranges get the whole file.
 */
import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { SandboxError } from '../errors';
import type { FileRecord, FileStore } from './store';

/** `attachment; filename="…"; filename*=UTF-8''…` with an ASCII fallback for old clients. */
export function contentDisposition(kind: 'attachment' | 'inline', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * The byte range `[start, end]` (inclusive) a `Range` header asks of a `size`-byte file; null to
 * send everything (no header, another unit, several ranges); throws 416 when it cannot be met.
 */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    // `bytes=-N`: the last N bytes.
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start > end || start >= size) {
    throw new SandboxError(416, `The range ${header} is outside the file's ${size} bytes.`, { 'content-range': `bytes */${size}` });
  }
  return { start, end };
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
