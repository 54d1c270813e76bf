/**
 * The log's scrubber: every line passes through it before it is written anywhere, so a request
 * dump, an error that quotes a header or a URL with the page token cannot put a secret on disk.
 * Patterns catch what looks like a secret (Bearer tokens, `sk-...` keys, `#token=`); the set
 * catches the secrets we know by value (the browser-mode token, keys the user saved), in every
 * form a service could echo them in (raw, base64, URL-encoded...: api/secret-scrubber.ts).
 */
import { secretForms } from '../api/secret-scrubber';

const PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/\b(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi, '$1[redacted]'],
  [/\bsk-[A-Za-z0-9_-]{6,}/g, 'sk-[redacted]'],
  [/([#?&]token=)[^&\s"']+/gi, '$1[redacted]'],
  [/\b((?:x-api-key|api-key)["']?\s*[:=]\s*["']?)[^\s"',}]+/gi, '$1[redacted]'],
  // The whole value of an Authorization header, whatever its scheme (Basic, a raw key).
  [/\b(authorization["']?\s*[:=]\s*["']?)[^"',}\n]+/gi, '$1[redacted]'],
];

/** Each secret's forms, worked out once: a log line must stay cheap. */
const formsOf = new Map<string, readonly string[]>();

function cachedForms(secret: string): readonly string[] {
  let forms = formsOf.get(secret);
  if (!forms) formsOf.set(secret, (forms = secretForms(secret)));
  return forms;
}

/**
 * Returns `line` with everything that looks like a secret, and each of `secrets` in every form,
 * masked. Secrets shorter than MIN_SECRET_LENGTH are not masked by value (they would blank words).
 */
export function redact(line: string, secrets: Iterable<string> = []): string {
  let out = line;
  for (const secret of secrets) {
    for (const form of cachedForms(secret)) if (out.includes(form)) out = out.split(form).join('[redacted]');
  }
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}
