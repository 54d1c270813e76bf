/**
 * Media tokens for browser mode's `GET /media/<hash>` route. A `<video>` or `<audio>` element
 * cannot send an Authorization header, so its URL has to carry the proof. We never put the
 * page's 256-bit access token there: that token opens the whole contract (requests on the user's
 * API key, all of History), and URLs end up where secrets must not (the server's request log,
 * the browser's history, devtools and HAR exports, "Copy video address", a Referer despite our
 * no-referrer policy if a future page forgets it). A cookie is no better on loopback: cookies are
 * not isolated by port, so every other server on 127.0.0.1 would receive it.
 *
 * Instead main signs `<hash>.<expiry>` with an HMAC key that lives only in this process: the
 * token opens one blob, for a limited time (MEDIA_TOKEN_TTL_MS, long enough to watch and seek a
 * video; the page asks `media.url` again after that), and dies with the process.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a media URL stays valid. */
export const MEDIA_TOKEN_TTL_MS = 6 * 60 * 60 * 1000;

export class MediaTokens {
  private readonly key = randomBytes(32);

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs: number = MEDIA_TOKEN_TTL_MS,
  ) {}

  /** A token for blob `hash`: `<expiresAt>.<signature>` (URL-safe). */
  issue(hash: string): { token: string; expiresAt: number } {
    const expiresAt = this.now() + this.ttlMs;
    return { token: `${expiresAt}.${this.sign(hash, expiresAt)}`, expiresAt };
  }

  /** Whether `token` was issued by this process for `hash` and has not expired. */
  verify(hash: string, token: string | null | undefined): boolean {
    if (typeof token !== 'string') return false;
    const m = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!m) return false;
    const expiresAt = Number(m[1]);
    if (!(expiresAt > this.now())) return false;
    const expected = Buffer.from(this.sign(hash, expiresAt));
    const offered = Buffer.from(m[2]);
    return expected.length === offered.length && timingSafeEqual(expected, offered);
  }

  private sign(hash: string, expiresAt: number): string {
    return createHmac('sha256', this.key).update(`media:${hash}.${expiresAt}`).digest('base64url');
  }
}
