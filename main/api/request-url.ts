/**
 * Joins a connection's base URL with an API path. Callers always give full versioned paths
 * (`/v1/chat/completions`, `/v2/phone-numbers`); a base URL the user typed with a trailing
 * `/v1` must not double the version.
 */

/** Origin and path+query for undici, plus the full URL for the inspector. */
export interface ResolvedUrl {
  origin: string;
  path: string;
  url: string;
}

/** A query value: an array repeats the parameter (`keyterm=a&keyterm=b`); undefined is left out. */
export type QueryValue = string | number | boolean | ReadonlyArray<string | number> | undefined;

/** Resolves `path` (starting with '/') and `query` (undefined values dropped) against `baseUrl`. */
export function resolveUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): ResolvedUrl {
  const base = new URL(baseUrl);
  let prefix = base.pathname.replace(/\/+$/, '');
  if (/\/v\d+$/.test(prefix) && /^\/v\d+(\/|$)/.test(path)) prefix = prefix.replace(/\/v\d+$/, '');
  let fullPath = `${prefix}${path.startsWith('/') ? path : `/${path}`}`;
  if (query) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) {
      if (Array.isArray(v)) for (const item of v as ReadonlyArray<string | number>) params.append(k, String(item));
      else if (v !== undefined) params.append(k, String(v));
    }
    const qs = params.toString();
    if (qs) fullPath += `${fullPath.includes('?') ? '&' : '?'}${qs}`;
  }
  return { origin: base.origin, path: fullPath, url: `${base.origin}${fullPath}` };
}
