/**
 * The gallery repository (table `gallery_items`, migration 0011): one row per image or video the
 * app produced or sent. Each row holds a reference on its blob (and on its thumbnail's), taken in
 * the same transaction as the insert and released in the same transaction as the delete, so the
 * orphan sweep never takes a gallery item's bytes and a deleted item's bytes go at the next sweep
 * once nothing else holds them. Rows carry records, not media URLs: the service adds those.
 */
import type { GalleryItem, GalleryKind, GalleryOrigin } from '../../shared/contract/gallery';
import { addBlobRef, releaseBlobRef } from './blob-rows';
import type { BlobInfo } from './blobs';
import type { Db } from './db';
import { matchExpression, parseSearch, prefixToken } from './fts-query';
import { prepare, timed } from './query';

/** A gallery item as the store keeps it (GalleryItem without its URLs, plus the thumbnail's blob). */
export type GalleryRow = Omit<GalleryItem, 'url' | 'thumbUrl'> & {
  thumbHash: string | null;
  thumbMime: string | null;
};

/** A new item: its blob is already on disk (BlobStore.put), the row takes a reference on it. */
export type NewGalleryRow = Omit<GalleryRow, 'thumbHash' | 'thumbMime'>;

interface Row {
  id: string;
  kind: string;
  origin: string;
  hash: string;
  mime: string;
  bytes: number;
  width: number | null;
  height: number | null;
  duration: number | null;
  prompt: string;
  revised_prompt: string | null;
  model: string | null;
  name: string;
  created_at: number;
  run_id: string | null;
  job_id: string | null;
  source_ids: string;
  thumb_hash: string | null;
  thumb_mime: string | null;
}

const COLUMNS = `g.id, g.kind, g.origin, g.hash, g.mime, g.bytes, g.width, g.height, g.duration, g.prompt, g.revised_prompt,
  g.model, g.name, g.created_at, g.run_id, g.job_id, g.source_ids, g.thumb_hash, g.thumb_mime`;

/** How many vocabulary terms a typed prefix may expand to before FTS's own prefix syntax is used. */
const MAX_PREFIX_EXPANSION = 64;

function toRow(row: Row): GalleryRow {
  let sourceIds: string[] = [];
  try {
    const parsed: unknown = JSON.parse(row.source_ids);
    if (Array.isArray(parsed)) sourceIds = parsed.filter((s): s is string => typeof s === 'string');
  } catch {
    // A row written by hand or damaged: no sources rather than no item.
  }
  return {
    id: row.id,
    kind: row.kind as GalleryKind,
    origin: row.origin as GalleryOrigin,
    hash: row.hash,
    mime: row.mime,
    bytes: row.bytes,
    width: row.width,
    height: row.height,
    duration: row.duration,
    prompt: row.prompt,
    revisedPrompt: row.revised_prompt,
    model: row.model,
    name: row.name,
    createdAt: row.created_at,
    runId: row.run_id,
    jobId: row.job_id,
    sourceIds,
    thumbHash: row.thumb_hash,
    thumbMime: row.thumb_mime,
  };
}

/** Inserts an item and takes its blob reference, in one transaction. */
export function insertGalleryItem(db: Db, item: NewGalleryRow): void {
  timed(db, 'insertGalleryItem', () =>
    db.transaction(() => {
      prepare(
        db,
        `INSERT INTO gallery_items (id, kind, origin, hash, mime, bytes, width, height, duration, prompt, revised_prompt,
           model, name, created_at, run_id, job_id, source_ids)
         VALUES (@id, @kind, @origin, @hash, @mime, @bytes, @width, @height, @duration, @prompt, @revisedPrompt,
           @model, @name, @createdAt, @runId, @jobId, @sourceIds)`,
      ).run({ ...item, sourceIds: JSON.stringify(item.sourceIds) });
      addBlobRef(db, { hash: item.hash, size: item.bytes, mime: item.mime }, item.createdAt);
    })(),
  );
}

export function getGalleryItem(db: Db, id: string): GalleryRow | null {
  const row = timed(db, 'getGalleryItem', () => prepare<[string], Row>(db, `SELECT ${COLUMNS} FROM gallery_items g WHERE g.id = ?`).get(id));
  return row ? toRow(row) : null;
}

/** The oldest item holding blob `hash` (an input sent twice is one item). */
export function getGalleryItemByHash(db: Db, hash: string): GalleryRow | null {
  const row = timed(db, 'getGalleryItemByHash', () =>
    prepare<[string], Row>(db, `SELECT ${COLUMNS} FROM gallery_items g WHERE g.hash = ? ORDER BY g.seq LIMIT 1`).get(hash),
  );
  return row ? toRow(row) : null;
}

/** The items run `runId` made or sent, in the order they were added. */
export function galleryItemsOfRun(db: Db, runId: string): GalleryRow[] {
  return timed(db, 'galleryItemsOfRun', () =>
    prepare<[string], Row>(db, `SELECT ${COLUMNS} FROM gallery_items g WHERE g.run_id = ? ORDER BY g.seq`).all(runId),
  ).map(toRow);
}

/** The items video job `jobId` made. */
export function galleryItemsOfJob(db: Db, jobId: string): GalleryRow[] {
  return timed(db, 'galleryItemsOfJob', () =>
    prepare<[string], Row>(db, `SELECT ${COLUMNS} FROM gallery_items g WHERE g.job_id = ? ORDER BY g.seq`).all(jobId),
  ).map(toRow);
}

/** Links an existing item to a run too (an input sent again by a later run keeps its first run). */
export function setGalleryRunIfNone(db: Db, id: string, runId: string): void {
  timed(db, 'setGalleryRunIfNone', () => prepare(db, 'UPDATE gallery_items SET run_id = ? WHERE id = ? AND run_id IS NULL').run(runId, id));
}

export interface GalleryQuery {
  query?: string;
  kind?: GalleryKind;
  /** The last item id of the previous page; an unknown id starts from the top. */
  after?: string;
  limit: number;
}

/** One page, newest first, with the total that matches and the next cursor (null at the end). */
export function listGallery(db: Db, q: GalleryQuery): { items: GalleryRow[]; total: number; next: string | null } {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  let from = 'gallery_items g';
  if (q.query !== undefined) {
    const search = parseSearch(q.query);
    if (search) {
      from = 'gallery_fts f JOIN gallery_items g ON g.seq = f.rowid';
      where.push('gallery_fts MATCH @match');
      params.match = matchExpression(search, search.prefix !== null ? expandPrefix(db, search.prefix) : undefined);
    }
  }
  if (q.kind) {
    where.push('g.kind = @kind');
    params.kind = q.kind;
  }
  const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = timed(db, 'countGallery', () => prepare<[Record<string, unknown>], number>(db, `SELECT COUNT(*) FROM ${from} ${filter}`).pluck().get(params) ?? 0);

  const page = [...where];
  if (q.after) {
    const cursor = prepare<[string], { created_at: number; seq: number }>(db, 'SELECT created_at, seq FROM gallery_items WHERE id = ?').get(q.after);
    if (cursor) {
      page.push('(g.created_at < @cAt OR (g.created_at = @cAt AND g.seq < @cSeq))');
      params.cAt = cursor.created_at;
      params.cSeq = cursor.seq;
    }
  }
  params.limit = q.limit + 1;
  const sql = `SELECT ${COLUMNS} FROM ${from} ${page.length ? `WHERE ${page.join(' AND ')}` : ''} ORDER BY g.created_at DESC, g.seq DESC LIMIT @limit`;
  const rows = timed(db, 'listGallery', () => prepare<[Record<string, unknown>], Row>(db, sql).all(params)).map(toRow);
  const more = rows.length > q.limit;
  const items = more ? rows.slice(0, q.limit) : rows;
  return { items, total, next: more ? items[items.length - 1].id : null };
}

/** The concrete indexed terms a typed prefix stands for (FTS's prefix merge is slow on a big index). */
function expandPrefix(db: Db, prefix: string): string[] | undefined {
  const token = prefixToken(prefix);
  if (token === null) return undefined;
  const terms = prepare<[string, string, number], string>(db, `SELECT term FROM gallery_fts_vocab WHERE term >= ? AND term < ? ORDER BY term LIMIT ?`)
    .pluck()
    .all(token, `${token}\u{10FFFF}`, MAX_PREFIX_EXPANSION + 1);
  return terms.length > 0 && terms.length <= MAX_PREFIX_EXPANSION ? terms : undefined;
}

/**
 * Sets an item's thumbnail (its blob already on disk), taking a reference on the new one and
 * releasing the old, in one transaction. Returns false when the item is gone.
 */
export function setGalleryThumb(db: Db, id: string, thumb: BlobInfo & { mime: string }, now: number = Date.now()): boolean {
  return timed(db, 'setGalleryThumb', () =>
    db.transaction(() => {
      const old = prepare<[string], { thumb_hash: string | null }>(db, 'SELECT thumb_hash FROM gallery_items WHERE id = ?').get(id);
      if (!old) return false;
      prepare(db, 'UPDATE gallery_items SET thumb_hash = ?, thumb_mime = ? WHERE id = ?').run(thumb.hash, thumb.mime, id);
      addBlobRef(db, thumb, now);
      if (old.thumb_hash) releaseBlobRef(db, old.thumb_hash);
      return true;
    })(),
  );
}

/** Deletes an item and releases its blob and thumbnail references, in one transaction. */
export function deleteGalleryItem(db: Db, id: string): GalleryRow | null {
  return timed(db, 'deleteGalleryItem', () =>
    db.transaction(() => {
      const item = getGalleryItem(db, id);
      if (!item) return null;
      prepare(db, 'DELETE FROM gallery_items WHERE id = ?').run(id);
      releaseBlobRef(db, item.hash);
      if (item.thumbHash) releaseBlobRef(db, item.thumbHash);
      return item;
    })(),
  );
}
