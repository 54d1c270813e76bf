/**
 * The value rules of the Files API (wire-notes §5): `expires_after` seconds and filenames. Each
 * returns the value or throws a 400 whose message names the field and the rule.
 */
import { FILE_LIMITS } from '../../../shared/wire/files';
import { SandboxError } from '../errors';

const { expiresAfterMinSeconds: MIN, expiresAfterMaxSeconds: MAX } = FILE_LIMITS;

/** Seconds for `expires_after` (a JSON number); `field` names it in the message. */
export function checkExpiresAfter(n: unknown, field = 'expires_after'): number {
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    throw new SandboxError(400, `${field} must be a whole number of seconds between ${MIN} and ${MAX}; got ${JSON.stringify(n)}.`);
  }
  if (n < MIN || n > MAX) {
    throw new SandboxError(400, `${field} must be between ${MIN} (1 hour) and ${MAX} (30 days) seconds; got ${n}.`);
  }
  return n;
}

const MAX_FILENAME_BYTES = 255;

/** A filename as given by a client: a plain name, not a path. */
export function checkFilename(value: unknown, field = 'filename'): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new SandboxError(400, `${field} must be a non-empty string.`);
  }
  if (Buffer.byteLength(value) > MAX_FILENAME_BYTES) {
    throw new SandboxError(400, `${field} is ${Buffer.byteLength(value)} bytes long; the limit is ${MAX_FILENAME_BYTES} bytes.`);
  }
  // C0, DEL and C1 (CSI is \u009b): they would forge lines or escapes wherever the name is shown.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) throw new SandboxError(400, `${field} must not contain control characters.`);
  if (/[/\\]/.test(value) || value === '.' || value === '..') {
    throw new SandboxError(400, `${field} must be a plain file name without a path ("/" or "\\"); got ${JSON.stringify(value)}.`);
  }
  return value;
}

/** The same rule for a form field, whose value is text: digits are read as the number. */
export function checkFormExpiresAfter(text: string, field: string): number {
  return checkExpiresAfter(/^\s*-?\d+\s*$/.test(text) ? Number(text) : text, field);
}
