/**
 * Media the sandbox produced (generated images; video may keep its own here too), served without
 * an API key at `/media/<kind>/<token>.<ext>` like a CDN URL. The token is the secret.
 *
 * - In memory only, bounded by bytes (default 256 MB): the least recently used entries go first.
 * - Each URL lives `ttlMs` (default 1 hour) on the sandbox clock, then answers 404 saying it
 *   expired. A state folder does not keep them: after a restart the URLs are unknown.
 */
import { randomBytes } from 'node:crypto';

export const MEDIA_URL_TTL_MS = 60 * 60 * 1000;
export const MEDIA_MAX_BYTES = 256 * 1024 * 1024;
/** How many gone URLs are remembered, so a 404 can say "expired" rather than "unknown". */
const MAX_TOMBSTONES = 10_000;

export interface MediaEntry {
  bytes: Uint8Array;
  mime: string;
  createdMs: number;
  expiresMs: number;
}

export type MediaGone = 'expired' | 'evicted';
export type MediaLookup = { state: 'found'; entry: MediaEntry } | { state: MediaGone; expiresMs: number } | { state: 'unknown' };

export interface MediaStoreOptions {
  ttlMs?: number;
  maxBytes?: number;
}

export class MediaStore {
  readonly ttlMs: number;
  readonly maxBytes: number;
  /** Keyed by path (`/media/images/<token>.jpg`); Map order is least recently used first. */
  private readonly entries = new Map<string, MediaEntry>();
  private readonly gone = new Map<string, { reason: MediaGone; expiresMs: number }>();
  private bytes = 0;

  constructor(options: MediaStoreOptions = {}) {
    this.ttlMs = options.ttlMs ?? MEDIA_URL_TTL_MS;
    this.maxBytes = options.maxBytes ?? MEDIA_MAX_BYTES;
  }

  /** Keeps the bytes under a fresh unguessable path, e.g. `/media/images/Xy...Z.jpg`. */
  put(kind: string, ext: string, bytes: Uint8Array, mime: string, nowMs: number): { path: string; entry: MediaEntry } {
    this.sweep(nowMs);
    const path = `/media/${kind}/${randomBytes(24).toString('base64url')}.${ext}`;
    const entry: MediaEntry = { bytes, mime, createdMs: nowMs, expiresMs: nowMs + this.ttlMs };
    this.entries.set(path, entry);
    this.bytes += bytes.byteLength;
    // Evict the oldest-used until within the bound; the new entry stays even when it alone is over it.
    for (const [oldPath, old] of this.entries) {
      if (this.bytes <= this.maxBytes || oldPath === path) break;
      this.drop(oldPath, old, 'evicted');
    }
    return { path, entry };
  }

  /** The entry at `path` (marking it recently used), or why there is none. */
  get(path: string, nowMs: number): MediaLookup {
    const entry = this.entries.get(path);
    if (entry) {
      if (nowMs >= entry.expiresMs) {
        this.drop(path, entry, 'expired');
        return { state: 'expired', expiresMs: entry.expiresMs };
      }
      this.entries.delete(path);
      this.entries.set(path, entry);
      return { state: 'found', entry };
    }
    const tomb = this.gone.get(path);
    if (!tomb) return { state: 'unknown' };
    // An evicted URL whose lifetime has also run out now reads as expired.
    return { state: tomb.reason === 'evicted' && nowMs >= tomb.expiresMs ? 'expired' : tomb.reason, expiresMs: tomb.expiresMs };
  }

  /** Bytes held now. */
  get size(): number {
    return this.bytes;
  }

  get count(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
    this.gone.clear();
    this.bytes = 0;
  }

  private sweep(nowMs: number): void {
    for (const [path, entry] of this.entries) if (nowMs >= entry.expiresMs) this.drop(path, entry, 'expired');
  }

  private drop(path: string, entry: MediaEntry, reason: MediaGone): void {
    this.entries.delete(path);
    this.bytes -= entry.bytes.byteLength;
    if (this.gone.size >= MAX_TOMBSTONES) this.gone.delete(this.gone.keys().next().value as string);
    this.gone.set(path, { reason, expiresMs: entry.expiresMs });
  }
}

/** The 404 message for a media URL that is not served (any more). */
export function mediaGoneMessage(lookup: Exclude<MediaLookup, { state: 'found' }>, ttlMs: number, maxBytes: number): string {
  const life = ttlMs % 3_600_000 === 0 ? `${ttlMs / 3_600_000} hour${ttlMs === 3_600_000 ? '' : 's'}` : `${Math.round(ttlMs / 1000)} s`;
  if (lookup.state === 'expired') {
    return `This media URL expired at ${new Date(lookup.expiresMs).toISOString()} (sandbox clock): generated media URLs last ${life}. Generate it again, or use response_format "b64_json" to keep the bytes.`;
  }
  if (lookup.state === 'evicted') {
    return `This media URL is no longer kept: the sandbox holds at most ${Math.round(maxBytes / 1024 / 1024)} MB of generated media in memory and dropped the least recently used. Generate it again.`;
  }
  return 'This media URL does not exist (media URLs are random, last a limited time, and are not kept across sandbox restarts).';
}
