/**
 * Browser mode's media route, `GET|HEAD /media/<hash>?t=<media token>`: serves a blob of the
 * store with Range support so `<audio>`/`<video>` can seek. The token (media-token.ts) opens this
 * one blob for a while; the Content-Type comes from the blob's row. Media responses carry their
 * own locked-down CSP (`sandbox`): an SVG or HTML blob opened directly must not run script on
 * the app's origin.
 */
import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { rangeResponseHead } from '../../shared/http-range';
import type { MediaLookup } from '../services/media-service';
import type { MediaTokens } from './media-token';

/** The path prefix of the route. */
export const MEDIA_PATH = '/media/';

const HASH_PATH = /^\/media\/([0-9a-f]{64})$/;

/** Headers of every media answer: no script, no sniffing, no framing by others. */
export const MEDIA_HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'none'; sandbox",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

type Reply = (res: ServerResponse, status: number, body: string, extra?: Record<string, string>) => void;

/** Answers one request whose path starts with MEDIA_PATH. */
export async function serveMedia(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  media: { lookup: MediaLookup; tokens: MediaTokens },
  reply: Reply,
  log: (line: string) => void,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return reply(res, 405, 'Method not allowed.', { Allow: 'GET, HEAD' });
  const match = HASH_PATH.exec(url.pathname);
  if (!match) return reply(res, 404, 'Not found.');
  const hash = match[1];
  if (!media.tokens.verify(hash, url.searchParams.get('t'))) return reply(res, 401, 'Unauthorized: the media link is missing its token or has expired.');
  const file = await media.lookup.find(hash);
  if (!file) return reply(res, 404, 'Not found.');
  const head = rangeResponseHead(req.headers.range, file.size, file.mime);
  res.writeHead(head.status, { ...MEDIA_HEADERS, 'Cache-Control': 'private, max-age=3600', ...head.headers });
  if (req.method === 'HEAD' || head.status === 416 || file.size === 0) return void res.end();
  createReadStream(file.path, { start: head.start, end: head.end })
    .on('error', (err) => {
      log(`[http] media ${hash}: ${err.message}`);
      res.destroy();
    })
    .pipe(res);
}
