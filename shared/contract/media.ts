/**
 * Media: blobs main already has (images, audio, video) reach the page by URL, never through the
 * contract, so `<img>`, `<audio>` and `<video>` stream and seek them with Range requests.
 */
import { z } from 'zod';
import { call } from './define';

/** A blob's name in the store: its SHA-256, lowercase hex. */
export const BlobHashSchema = z.string().regex(/^[0-9a-f]{64}$/, 'a blob hash is 64 lowercase hex digits');

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

export const mediaContract = {
  url: call<MediaUrl>()(z.object({ hash: BlobHashSchema }).strict()),
};
