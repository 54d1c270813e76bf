/**
 * Header handling shared by the client: normalising undici's header objects and redacting
 * secret-looking request headers by name (values are masked by secret-scrubber.ts).
 */

import { isSecretHeader } from '../../shared/request-headers';

/** Lower-cased names; repeated headers joined with ", " (set-cookie included, it is redacted anyway). */
export function headersToRecord(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** A copy safe to store: Authorization becomes `Bearer ***`, other secret-looking headers `***`. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'authorization') {
      out[name] = /^bearer\s/i.test(value) ? 'Bearer ***' : '***';
    } else {
      out[name] = isSecretHeader(name) ? '***' : value;
    }
  }
  return out;
}
