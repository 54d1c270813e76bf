/**
 * Header handling shared by the client: normalising undici's header objects and keeping
 * secrets out of anything that is stored or shown (captured requests, error messages).
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

/** Replaces every occurrence of `secret` inside strings of a JSON-like value (services sometimes echo keys). */
export function scrubSecret<T>(value: T, secret: string | null): T {
  if (!secret || secret.length < 4) return value;
  const scrub = (v: unknown): unknown => {
    if (typeof v === 'string') return v.includes(secret) ? v.split(secret).join('***') : v;
    if (Array.isArray(v)) return v.map(scrub);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = scrub(x);
      return out;
    }
    return v;
  };
  return scrub(value) as T;
}
