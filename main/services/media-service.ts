/**
 * Media the app keeps in the blob store, for the page: finds a blob that a row still refers to
 * (its file, size and MIME type, for either shell's media server) and gives the page a URL for it
 * in the shell's own form (`mediaUrlOf`: a signed /media/ link in browser mode, the
 * workbench-media:// scheme in Electron).
 */
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { MediaUrl } from '../../shared/contract/media';
import { getBlobRow } from '../store/blob-rows';
import { isBlobHash, type BlobStore } from '../store/blobs';
import type { Db } from '../store/db';

/** Where the bytes of a blob are and what they are. */
export interface MediaFile {
  path: string;
  size: number;
  mime: string;
}

/** Finds a blob the app still refers to; null for anything else. Both shells' media servers use it. */
export interface MediaLookup {
  find(hash: string): Promise<MediaFile | null>;
}

/** How a shell addresses blob `hash`. */
export type MediaUrlOf = (hash: string) => { url: string; expiresAt: number | null };

export class MediaService implements MediaLookup {
  constructor(
    private readonly db: Db,
    readonly store: BlobStore,
    private readonly urlOf: MediaUrlOf,
  ) {}

  /** The file of blob `hash` when a row refers to it and it is on disk; null otherwise. */
  async find(hash: string): Promise<MediaFile | null> {
    if (!isBlobHash(hash)) return null;
    const row = getBlobRow(this.db, hash);
    if (!row || row.refs <= 0) return null;
    const info = await this.store.stat(hash);
    return info ? { path: this.store.pathOf(hash), size: info.size, mime: row.mime } : null;
  }

  /** The URL the page loads blob `hash` from. */
  async url(hash: string): Promise<MediaUrl> {
    const file = await this.find(hash);
    if (!file) throw new WorkbenchFailure({ code: 'not_found', message: 'That media is no longer in the app’s data folder.' });
    return { ...this.urlOf(hash), mime: file.mime, size: file.size };
  }
}
