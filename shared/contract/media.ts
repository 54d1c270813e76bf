/**
 * Media: blobs main already has (images, audio, video) reach the page by URL, never through the
 * contract, so `<img>`, `<audio>` and `<video>` stream and seek them with Range requests.
 */
import { z } from 'zod';
import { call } from './define';

/** A blob's name in the store: its SHA-256, lowercase hex. */
export const BlobHashSchema = z.string().regex(/^[0-9a-f]{64}$/, 'a blob hash is 64 lowercase hex digits');

/**
 * What a recorded request holds in place of inline base64 media (a `data:` URL, or a Messages
 * `source.data`): the blob's hash, its type, and which of the two it stood for. History hands a
 * run out with these (and each blob's URL in `RunRecord.media`), never the bytes; only a re-run
 * asks for the request with the bytes put back (`history.request`).
 */
export interface BlobReference {
  $blob: string;
  mime: string;
  encoding: 'data-url' | 'base64';
}

const BLOB_HASH = /^[0-9a-f]{64}$/;

export function isBlobReference(value: unknown): value is BlobReference {
  const v = value as Partial<BlobReference> | null;
  return !!v && typeof v === 'object' && typeof v.$blob === 'string' && BLOB_HASH.test(v.$blob) && typeof v.mime === 'string';
}

/** Every blob reference inside `value` (a recorded request body), in document order. */
export function blobReferencesIn(value: unknown, out: BlobReference[] = []): BlobReference[] {
  if (isBlobReference(value)) out.push(value);
  else if (Array.isArray(value)) for (const v of value) blobReferencesIn(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) blobReferencesIn(v, out);
  return out;
}

/** Where the page loads a blob from. */
export interface MediaUrl {
  /**
   * Electron: `workbench-media://blob/<hash>`. Browser mode: `/media/<hash>?t=<token>`, relative
   * to the page, with a token that opens this blob only, until `expiresAt`.
   */
  url: string;
  /** When the URL stops working (ms since the epoch); null when it does not expire. */
  expiresAt: number | null;
  mime: string;
  size: number;
}

/**
 * Where the page opens its real-time frame channel to the media process (main/media), which
 * carries frames past main's event loop: browser mode, the media process's own loopback
 * WebSocket with its own token; Electron, a MessagePort the preload asks for (`port`).
 */
export type MediaChannelInfo = { transport: 'websocket'; url: string; token: string } | { transport: 'port' };

export const mediaContract = {
  url: call<MediaUrl>()(z.object({ hash: BlobHashSchema }).strict()),
  channel: call<MediaChannelInfo>()(z.object({}).strict().optional()),
};
