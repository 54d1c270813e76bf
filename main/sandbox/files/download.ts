/**
 * Sends a stored file's bytes, streamed from disk with back-pressure: the content route
 * (`application/octet-stream`, attachment) and the public URL (the upload's own type, inline, so
 * a browser shows an image or plays a video).
 */
import { createReadStream } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { FileRecord, FileStore } from './store';

/** `attachment; filename="…"; filename*=UTF-8''…` with an ASCII fallback for old clients. */
export function contentDisposition(kind: 'attachment' | 'inline', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** Streams the file; a client that goes away mid-way just ends the pipeline. */
export async function sendFileBytes(
  res: ServerResponse,
  store: FileStore,
  record: FileRecord,
  how: { contentType: string; disposition: 'attachment' | 'inline' },
): Promise<void> {
  // Opened before the headers so a file removed under us is a clean error, not a cut response.
  const input = createReadStream(store.pathOf(record.id));
  await new Promise<void>((resolve, reject) => {
    input.once('open', () => resolve());
    input.once('error', reject);
  });
  res.writeHead(200, {
    'content-type': how.contentType,
    'content-length': record.bytes,
    'content-disposition': contentDisposition(how.disposition, record.filename),
  });
  try {
    await pipeline(input, res);
  } catch {
    // The client went away; nothing to answer.
  }
}
