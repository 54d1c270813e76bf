/**
 * The browser-mode access token: 256 random bits, compared in constant time. It travels in the
 * URL fragment (never sent to a server or a Referer) and then as a WebSocket subprotocol.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Subprotocol every client offers; the server selects it (browsers require a selection). */
export const WS_PROTOCOL = 'workbench';
/** Prefix of the subprotocol carrying the token: `token.<token>`. */
export const WS_TOKEN_PREFIX = 'token.';

/** A fresh token: 32 random bytes, base64url (valid in a URL fragment and a subprotocol). */
export function newAccessToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time comparison: digests first, so lengths never leak through timing either. */
export function tokensMatch(expected: string, offered: string | null | undefined): boolean {
  if (typeof offered !== 'string' || offered.length === 0) return false;
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(offered).digest();
  return timingSafeEqual(a, b);
}

/** Picks the token out of a `Sec-WebSocket-Protocol` header (`workbench, token.<t>`). */
export function tokenFromProtocols(header: string | undefined): string | null {
  if (!header) return null;
  for (const raw of header.split(',')) {
    const p = raw.trim();
    if (p.startsWith(WS_TOKEN_PREFIX)) return p.slice(WS_TOKEN_PREFIX.length);
  }
  return null;
}

/** Picks the token out of an `Authorization: Bearer <t>` header (for non-WebSocket routes). */
export function tokenFromAuthorization(header: string | undefined): string | null {
  const m = header?.match(/^Bearer\s+(\S+)$/i);
  return m ? m[1] : null;
}
