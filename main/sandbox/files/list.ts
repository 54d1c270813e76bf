/**
 * `GET /v1/files`: the query (`limit` 1–100 default 100, `order` asc|desc default desc, `sort_by`
 * created_at|filename|size, `pagination_token` or its alias `after`, `filter`) and one page.
 * The token is the id of the page's last file: the next page starts after that file in the same
 * order (the official SDKs page the same way with `after=<last id>`), so it stays valid while files
 * come and go. Every sort ends with the insertion order, so pages never overlap or skip.
 */
import { FILE_LIMITS, type FileListQuery } from '../../../shared/wire/files';
import { SandboxError } from '../errors';
import type { FileRecord } from './store';

export interface ListQuery {
  limit: number;
  order: 'asc' | 'desc';
  sortBy: NonNullable<FileListQuery['sort_by']>;
  /** Id of the last file of the previous page. */
  after: string | null;
  filter: string | null;
}

const SORTS = ['created_at', 'filename', 'size'] as const;
const KNOWN = new Set(['limit', 'order', 'sort_by', 'pagination_token', 'after', 'filter']);

/** Reads and checks the query; every bad value is a 400 naming the parameter. */
export function parseListQuery(query: URLSearchParams): ListQuery {
  // Unknown parameters (an SDK's `purpose`) are ignored, as the service does; known ones must be single.
  for (const key of KNOWN) {
    if (query.getAll(key).length > 1) throw new SandboxError(400, `The query parameter ${key} is given more than once.`);
  }
  const { listLimitMin: min, listLimitMax: max, listLimitDefault } = FILE_LIMITS;
  const rawLimit = query.get('limit');
  let limit: number = listLimitDefault;
  if (rawLimit !== null) {
    limit = /^\d+$/.test(rawLimit) ? Number(rawLimit) : NaN;
    if (!(limit >= min && limit <= max)) throw new SandboxError(400, `limit must be a whole number from ${min} to ${max}; got "${rawLimit}".`);
  }
  const order = query.get('order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw new SandboxError(400, `order must be "asc" or "desc"; got "${order}".`);
  const sortBy = query.get('sort_by') ?? 'created_at';
  if (!(SORTS as readonly string[]).includes(sortBy)) {
    throw new SandboxError(400, `sort_by must be one of ${SORTS.join(', ')}; got "${sortBy}".`);
  }
  const token = query.get('pagination_token');
  const after = query.get('after');
  if (token !== null && after !== null && token !== after) {
    throw new SandboxError(400, 'Send pagination_token or after (its compatibility alias), not both.');
  }
  const cursor = token ?? after;
  if (cursor === '') throw new SandboxError(400, `${token !== null ? 'pagination_token' : 'after'} is empty; omit it for the first page.`);
  const filter = query.get('filter');
  return { limit, order, sortBy: sortBy as ListQuery['sortBy'], after: cursor, filter: filter === null || filter.trim() === '' ? null : filter };
}

type Compare = (a: FileRecord, b: FileRecord) => number;

const KEYS: Record<ListQuery['sortBy'], Compare> = {
  created_at: (a, b) => a.createdMs - b.createdMs,
  filename: (a, b) => (a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0),
  size: (a, b) => a.bytes - b.bytes,
};

/** The total order of a listing: the sort key, then insertion order; `desc` reverses both. */
export function comparator(sortBy: ListQuery['sortBy'], order: ListQuery['order']): Compare {
  const key = KEYS[sortBy];
  const asc: Compare = (a, b) => key(a, b) || a.seq - b.seq;
  return order === 'asc' ? asc : (a, b) => asc(b, a);
}

/**
 * One page: the files that pass `keep`, in order, after `cursor` (a record, or null for the first
 * page), at most `limit`. The token is the last file's id, or null for an empty page; `hasMore`
 * says whether another page has files.
 */
export function listPage(
  files: readonly FileRecord[],
  q: Pick<ListQuery, 'limit' | 'order' | 'sortBy'>,
  keep: (r: FileRecord) => boolean,
  cursor: FileRecord | null,
): { page: FileRecord[]; token: string | null; hasMore: boolean } {
  const cmp = comparator(q.sortBy, q.order);
  const candidates: FileRecord[] = [];
  for (const f of files) if ((cursor === null || cmp(f, cursor) > 0) && keep(f)) candidates.push(f);
  const page = smallest(candidates, q.limit, cmp);
  return { page, token: page.at(-1)?.id ?? null, hasMore: candidates.length > page.length };
}

/** The `n` smallest items in order, without sorting everything when `n` is much smaller. */
function smallest<T>(items: T[], n: number, cmp: (a: T, b: T) => number): T[] {
  if (items.length <= n * 4) return items.sort(cmp).slice(0, n);
  // Keep a sorted window of the best n; most items are rejected by one comparison with its last.
  const best = items.slice(0, n).sort(cmp);
  for (let i = n; i < items.length; i++) {
    const item = items[i];
    if (cmp(item, best[n - 1]) >= 0) continue;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cmp(item, best[mid]) < 0) hi = mid;
      else lo = mid + 1;
    }
    best.splice(lo, 0, item);
    best.pop();
  }
  return best;
}

/** The cursor's 400 when the token names no file the team had. */
export function badCursor(token: string): SandboxError {
  return new SandboxError(400, `pagination_token ${JSON.stringify(token)} is not a token from an earlier page of your files; omit it for the first page.`);
}
