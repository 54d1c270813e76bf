/**
 * The workbench-media:// scheme: `workbench-media://blob/<hash>` serves a blob of the store to
 * the page with the same Range answers as browser mode's /media/ route (shared/http-range.ts),
 * so `<audio>` and `<video>` seek. No token: a protocol handler only answers our own session,
 * whose only pages are app://. The scheme is registered as privileged (with `stream` so media
 * elements may read it progressively) together with app:// in protocol.ts.
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { protocol } from 'electron';
import { rangeResponseHead } from '../../shared/http-range';
import { MEDIA_HEADERS } from '../host/media-route';
import type { MediaLookup } from '../services/media-service';

export const MEDIA_SCHEME = 'workbench-media';
const MEDIA_HOST = 'blob';
const HASH_PATH = /^\/([0-9a-f]{64})$/;

/** The URL the page loads blob `hash` from. */
export function mediaUrlOf(hash: string): { url: string; expiresAt: null } {
  return { url: `${MEDIA_SCHEME}://${MEDIA_HOST}/${hash}`, expiresAt: null };
}

/** Answers one workbench-media:// request. */
export async function mediaProtocolResponse(lookup: MediaLookup, request: { url: string; method: string; headers: Headers }): Promise<Response> {
  const refuse = (status: number) => new Response(null, { status, headers: MEDIA_HEADERS });
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return refuse(400);
  }
  if (url.protocol !== `${MEDIA_SCHEME}:` || url.host !== MEDIA_HOST) return refuse(404);
  if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405);
  const match = HASH_PATH.exec(url.pathname);
  if (!match) return refuse(404);
  const file = await lookup.find(match[1]);
  if (!file) return refuse(404);
  const head = rangeResponseHead(request.headers.get('range'), file.size, file.mime);
  const headers = { ...MEDIA_HEADERS, 'Cache-Control': 'private, max-age=3600', ...head.headers };
  if (request.method === 'HEAD' || head.status === 416 || file.size === 0) return new Response(null, { status: head.status, headers });
  const body = Readable.toWeb(createReadStream(file.path, { start: head.start, end: head.end })) as ReadableStream<Uint8Array>;
  return new Response(body, { status: head.status, headers });
}

/** Serves workbench-media:// once the app is ready; returns the disposer. */
export function setupMediaProtocol(lookup: MediaLookup): () => void {
  protocol.handle(MEDIA_SCHEME, (request) => mediaProtocolResponse(lookup, request));
  return () => protocol.unhandle(MEDIA_SCHEME);
}
