/**
 * The log's scrubber: every line passes through it before it is written anywhere, so a request
 * dump, an error that quotes a header or a URL with the page token cannot put a secret on disk.
 * Patterns catch what looks like a secret (Bearer tokens, `sk-...` keys, `#token=`); the set
 * catches the secrets we know by value (the browser-mode token, keys the user saved), in every
 * form a service could echo them in (raw, base64, URL-encoded...: api/secret-scrubber.ts).
 */
import type { SecretScrubber } from '../api/secret-scrubber';

const PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/\b(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi, '$1[redacted]'],
  [/\bsk-[A-Za-z0-9_-]{6,}/g, 'sk-[redacted]'],
  [/([#?&]token=)[^&\s"']+/gi, '$1[redacted]'],
  [/\b((?:x-api-key|api-key)["']?\s*[:=]\s*["']?)[^\s"',}]+/gi, '$1[redacted]'],
  // The whole value of an Authorization header, whatever its scheme (Basic, a raw key).
  [/\b(authorization["']?\s*[:=]\s*["']?)[^"',}\n]+/gi, '$1[redacted]'],
];

/** What the log writes in place of a secret. */
export const LOG_MASK = '[redacted]';

/**
 * Returns `line` with the secrets `known` knows masked in every form (a scrubber made with
 * LOG_MASK; secrets shorter than MIN_SECRET_LENGTH are not masked by value, they would blank
 * words), then everything else that looks like a secret.
 */
export function redact(line: string, known?: SecretScrubber): string {
  let out = known ? known.text(line) : line;
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}
