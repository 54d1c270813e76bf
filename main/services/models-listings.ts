/**
 * Reads the four model listings defensively before they are merged: a listing whose wrapper is
 * not the expected one (`{object, data}` where `{models}` is expected), or whose entries lack an
 * id, is left out with a note saying which listing and why, instead of failing the whole
 * catalogue. Fields of the wrong type become "unknown" (null, empty) rather than reaching the view.
 * Pure: results in, listings and notes out.
 */
import type { ApiResult } from '../api/client';
import type { ListingNote } from '../../shared/families/models/contract';
import { isObject } from '../../shared/is-object';
import type { Listings } from './models-catalogue';

export type ListingName = keyof Listings;

/** Where each listing comes from and which key holds its entries (spec "Models"). */
export const LISTINGS: Record<ListingName, { path: string; key: 'data' | 'models' }> = {
  models: { path: '/v1/models', key: 'data' },
  language: { path: '/v1/language-models', key: 'models' },
  image: { path: '/v1/image-generation-models', key: 'models' },
  video: { path: '/v1/video-generation-models', key: 'models' },
};

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
const numberOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** One entry with every field the merge reads given a value of its type (unknown -> null / empty). */
function cleanEntry(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k.endsWith('_price') || k.endsWith('_price_long_context') || k === 'long_context_threshold' || k === 'context_length') {
      out[k] = numberOrNull(v);
    }
  }
  return {
    ...out,
    id: raw.id,
    aliases: strings(raw.aliases),
    owned_by: typeof raw.owned_by === 'string' ? raw.owned_by : '',
    created: numberOrNull(raw.created) ?? 0,
    version: typeof raw.version === 'string' ? raw.version : null,
    input_modalities: strings(raw.input_modalities),
    output_modalities: strings(raw.output_modalities),
    context_length: numberOrNull(raw.context_length),
  };
}

/** `{object, data}`, `a list`, `text`: what the listing answered instead, in a few words. */
function describeShape(value: unknown): string {
  if (value === null || value === undefined) return 'an empty body';
  if (Array.isArray(value)) return 'a bare list';
  if (isObject(value)) {
    const keys = Object.keys(value);
    return keys.length === 0 ? '{}' : `{${keys.slice(0, 6).join(', ')}${keys.length > 6 ? ', …' : ''}}`;
  }
  return `a ${typeof value}`;
}

/**
 * The usable entries of one listing, and a note when some or all of it could not be used. A
 * typed listing that answers 404 is a service without it: no note.
 */
export function readListing(name: ListingName, result: ApiResult<unknown>): { entries: unknown[]; note: ListingNote | null } {
  const { path, key } = LISTINGS[name];
  const note = (message: string): ListingNote => ({ listing: path, message });
  if (!result.ok) {
    if (name !== 'models' && result.error.status === 404) return { entries: [], note: null };
    return { entries: [], note: note(`${path} failed: ${result.error.message}`) };
  }
  const value = result.value;
  const list = isObject(value) ? value[key] : undefined;
  if (!Array.isArray(list)) {
    return { entries: [], note: note(`${path} answered with ${describeShape(value)} where {${key}} was expected; none of its models are shown.`) };
  }
  const usable = list.filter((e): e is Record<string, unknown> => isObject(e) && typeof e.id === 'string' && e.id !== '');
  const entries = usable.map(cleanEntry);
  const skipped = list.length - usable.length;
  if (skipped === 0) return { entries, note: null };
  return { entries, note: note(`${path}: ${skipped} of ${list.length} entries have no id and are not shown.`) };
}
