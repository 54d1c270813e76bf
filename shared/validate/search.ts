/**
 * Validation of live-search options: `search_parameters` (chat and responses) and chat
 * `web_search_options`. The spec gives the fields; the bounds the spec leaves open (result count,
 * list sizes) are SEARCH_LIMITS in shared/wire/search.ts.
 */
import { SEARCH_LIMITS, SEARCH_MODES, SEARCH_SOURCE_TYPES } from '../wire/search';
import { collect, expectEnum, expectType, isObject, isUnset, shape, value, type RequestViolation } from './violations';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Websites / handles per source: enough for real filters, small enough to stay a filter. */
const MAX_LIST = 10;
const CONTEXT_SIZES = ['low', 'medium', 'high'] as const;

function isCalendarDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

function date(field: string, v: unknown): RequestViolation | null {
  const type = expectType(field, v, 'string');
  if (type || isUnset(v)) return type;
  return isCalendarDate(v as string) ? null : value(field, `${field} must be a date written YYYY-MM-DD`);
}

function stringList(field: string, v: unknown): RequestViolation[] {
  if (isUnset(v)) return [];
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) return [shape(field, `${field} must be an array of strings`)];
  if (v.length > MAX_LIST) return [value(field, `${field} must have at most ${MAX_LIST} entries (got ${v.length})`)];
  return [];
}

function validateSource(s: unknown, at: string): RequestViolation[] {
  if (!isObject(s)) return [shape(at, `${at} must be an object with a type ("web", "x", "news" or "rss")`)];
  if (s.type === undefined) return [shape(`${at}.type`, `${at}.type is required: "web", "x", "news" or "rss"`)];
  const type = expectEnum(`${at}.type`, s.type, SEARCH_SOURCE_TYPES);
  if (type) return [type];
  const out = collect(
    expectType(`${at}.country`, s.country, 'string') ??
      (typeof s.country === 'string' && !/^[A-Za-z]{2}$/.test(s.country)
        ? value(`${at}.country`, `${at}.country must be a two-letter country code, e.g. "US"`)
        : null),
    expectType(`${at}.safe_search`, s.safe_search, 'boolean'),
    stringList(`${at}.allowed_websites`, s.allowed_websites),
    stringList(`${at}.excluded_websites`, s.excluded_websites),
    stringList(`${at}.included_x_handles`, s.included_x_handles),
    stringList(`${at}.excluded_x_handles`, s.excluded_x_handles),
    expectType(`${at}.post_favorite_count`, s.post_favorite_count, 'integer'),
    expectType(`${at}.post_view_count`, s.post_view_count, 'integer'),
  );
  if (!isUnset(s.allowed_websites) && !isUnset(s.excluded_websites)) {
    out.push(value(`${at}.allowed_websites`, `${at} cannot have both allowed_websites and excluded_websites; keep one`));
  }
  if (!isUnset(s.included_x_handles) && !isUnset(s.excluded_x_handles)) {
    out.push(value(`${at}.included_x_handles`, `${at} cannot have both included_x_handles and excluded_x_handles; keep one`));
  }
  if (s.type === 'rss') {
    const links = s.links;
    if (!Array.isArray(links) || links.length !== 1 || typeof links[0] !== 'string') {
      out.push(value(`${at}.links`, `${at}.links must hold exactly one RSS feed URL`));
    }
  }
  return out;
}

/** Every rule of `search_parameters`; `field` lets a caller nest it. */
export function validateSearchParameters(sp: unknown, field = 'search_parameters'): RequestViolation[] {
  const type = expectType(field, sp, 'object');
  if (type || isUnset(sp)) return collect(type);
  const s = sp as Record<string, unknown>;
  const { min, max } = SEARCH_LIMITS.maxSearchResults;
  const out = collect(
    date(`${field}.from_date`, s.from_date),
    date(`${field}.to_date`, s.to_date),
    expectType(`${field}.max_search_results`, s.max_search_results, 'integer') ??
      (typeof s.max_search_results === 'number' && (s.max_search_results < min || s.max_search_results > max)
        ? value(`${field}.max_search_results`, `${field}.max_search_results must be between ${min} and ${max}`)
        : null),
    expectEnum(`${field}.mode`, s.mode, SEARCH_MODES),
    expectType(`${field}.return_citations`, s.return_citations, 'boolean'),
  );
  if (out.length === 0 && typeof s.from_date === 'string' && typeof s.to_date === 'string' && s.from_date > s.to_date) {
    out.push(value(`${field}.to_date`, `${field}.to_date (${s.to_date}) is before from_date (${s.from_date}); swap them`));
  }
  if (!isUnset(s.sources)) {
    if (!Array.isArray(s.sources)) out.push(shape(`${field}.sources`, `${field}.sources must be an array of source objects`));
    else {
      if (s.sources.length > SEARCH_LIMITS.sources.max) {
        out.push(value(`${field}.sources`, `${field}.sources must have at most ${SEARCH_LIMITS.sources.max} entries (got ${s.sources.length})`));
      }
      s.sources.forEach((src, i) => out.push(...validateSource(src, `${field}.sources[${i}]`)));
    }
  }
  return out;
}

/** Every rule of chat `web_search_options`. */
export function validateWebSearchOptions(o: unknown, field = 'web_search_options'): RequestViolation[] {
  const type = expectType(field, o, 'object');
  if (type || isUnset(o)) return collect(type);
  const w = o as Record<string, unknown>;
  const out = collect(expectEnum(`${field}.search_context_size`, w.search_context_size, CONTEXT_SIZES));
  if (!isUnset(w.filters)) {
    if (!isObject(w.filters)) out.push(shape(`${field}.filters`, `${field}.filters must be an object {allowed_domains?, excluded_domains?}`));
    else {
      out.push(...stringList(`${field}.filters.allowed_domains`, w.filters.allowed_domains));
      out.push(...stringList(`${field}.filters.excluded_domains`, w.filters.excluded_domains));
    }
  }
  if (!isUnset(w.user_location)) {
    const loc = w.user_location;
    if (!isObject(loc)) out.push(shape(`${field}.user_location`, `${field}.user_location must be an object {type: "approximate", approximate: {...}}`));
    else {
      out.push(...collect(expectEnum(`${field}.user_location.type`, loc.type, ['approximate'])));
      if (!isUnset(loc.approximate)) {
        if (!isObject(loc.approximate)) out.push(shape(`${field}.user_location.approximate`, `${field}.user_location.approximate must be an object`));
        else {
          for (const key of ['city', 'country', 'region', 'timezone']) {
            out.push(...collect(expectType(`${field}.user_location.approximate.${key}`, loc.approximate[key], 'string')));
          }
        }
      }
    }
  }
  return out;
}
