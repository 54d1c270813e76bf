/**
 * Browser mode's download route: `GET /downloads/<token>` serves a file main saved for the page
 * (see services/download-tickets.ts) once, as an attachment, so the browser's own download
 * manager saves it. The 256-bit token is the credential (a plain link cannot carry the page's
 * Bearer token); it works once, for a minute, and the temporary file is deleted after serving.
 */
import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DownloadTicket } from '../services/download-tickets';

/** What the route needs of the tickets. */
export interface DownloadSource {
  take(token: string): DownloadTicket | null;
  discard(path: string): void;
}

export const DOWNLOAD_PREFIX = '/downloads/';

/** `attachment; filename="…"; filename*=UTF-8''…`: ASCII fallback plus the exact name (RFC 6266). */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  // RFC 5987's attr-char leaves out ' ( ) * as well, which encodeURIComponent keeps.
  const exact = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/**
 * Serves `pathname` if it is a download link; returns false for any other path. `headers` are the
 * server's security headers.
 */
export function serveDownload(req: IncomingMessage, res: ServerResponse, pathname: string, source: DownloadSource, headers: Record<string, string>, log: (line: string) => void): boolean {
  if (!pathname.startsWith(DOWNLOAD_PREFIX)) return false;
  const token = pathname.slice(DOWNLOAD_PREFIX.length);
  const plain = { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' };
  if (req.method !== 'GET') {
    res.writeHead(405, { ...plain, Allow: 'GET' });
    res.end('Method not allowed.');
    return true;
  }
  const ticket = /^[A-Za-z0-9_-]{43}$/.test(token) ? source.take(token) : null;
  if (!ticket) {
    res.writeHead(404, plain);
    res.end('This download link has expired or was already used. Download the file again from the Files view.');
    return true;
  }
  res.writeHead(200, {
    ...headers,
    'Content-Type': 'application/octet-stream',
    'Content-Length': String(ticket.bytes),
    'Content-Disposition': contentDisposition(ticket.filename),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  createReadStream(ticket.path)
    .on('error', (err) => {
      log(`[downloads] reading ${ticket.path}: ${err.message}`);
      res.destroy();
    })
    .on('close', () => source.discard(ticket.path))
    .pipe(res);
  return true;
}
