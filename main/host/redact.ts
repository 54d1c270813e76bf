/**
 * The log's scrubber: every line passes through it before it is written anywhere, so a request
 * dump, an error that quotes a header or a URL with the page token cannot put a secret on disk.
 * Patterns catch what looks like a secret (Bearer tokens, `sk-...` keys, `#token=`); the set
 * catches the secrets we know by value (the browser-mode token, keys the user saved).
 */

const PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/\b(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi, '$1[redacted]'],
  [/\bsk-[A-Za-z0-9_-]{6,}/g, 'sk-[redacted]'],
  [/([#?&]token=)[^&\s"']+/gi, '$1[redacted]'],
  [/\b((?:x-api-key|api-key)["']?\s*[:=]\s*["']?)[^\s"',}]+/gi, '$1[redacted]'],
  // The whole value of an Authorization header, whatever its scheme (Basic, a raw key).
  [/\b(authorization["']?\s*[:=]\s*["']?)[^"',}\n]+/gi, '$1[redacted]'],
];

/** Shorter strings are not masked by value: they would blank ordinary words. */
const MIN_SECRET_LENGTH = 8;

/** Returns `line` with everything that looks like a secret, and each of `secrets`, masked. */
export function redact(line: string, secrets: Iterable<string> = []): string {
  let out = line;
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_LENGTH) out = out.split(secret).join('[redacted]');
  }
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}
