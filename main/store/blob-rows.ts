/**
 * The `blobs` table (migration 0008): which blobs of the store something refers to, their MIME
 * type and how many references they have. The order of a write is always file first, row second
 * (BlobStore.put, then addBlobRef in the caller's transaction), so a row never names a missing
 * file; the converse, a file with no row (a crash between the two, or the last reference
 * released), is what sweepOrphanBlobs clears.
 */
import type { BlobInfo, BlobStore } from './blobs';
import type { Db } from './db';
import { prepare, timed } from './query';

/** One blob as the database knows it. */
export interface BlobRow {
  hash: string;
  size: number;
  mime: string;
  createdAt: number;
  refs: number;
}

interface Row {
  hash: string;
  size: number;
  mime: string;
  created_at: number;
  refs: number;
}

/** Records one more reference to a blob already on disk (the row is created on the first). */
export function addBlobRef(db: Db, blob: BlobInfo & { mime: string }, now: number = Date.now()): void {
  timed(db, 'addBlobRef', () =>
    prepare(
      db,
      `INSERT INTO blobs (hash, size, mime, created_at, refs) VALUES (?, ?, ?, ?, 1)
       ON CONFLICT (hash) DO UPDATE SET refs = refs + 1`,
    ).run(blob.hash, blob.size, blob.mime, now),
  );
}

/** Drops one reference; the file goes at the next sweep once nothing refers to it. */
export function releaseBlobRef(db: Db, hash: string): void {
  timed(db, 'releaseBlobRef', () => prepare(db, 'UPDATE blobs SET refs = MAX(refs - 1, 0) WHERE hash = ?').run(hash));
}

/** The row of blob `hash`, or null when nothing refers to it. */
export function getBlobRow(db: Db, hash: string): BlobRow | null {
  const row = timed(db, 'getBlobRow', () => prepare<[string], Row>(db, 'SELECT hash, size, mime, created_at, refs FROM blobs WHERE hash = ?').get(hash));
  return row ? { hash: row.hash, size: row.size, mime: row.mime, createdAt: row.created_at, refs: row.refs } : null;
}

/**
 * Removes temporaries left by interrupted writes (unless `temps: false`: only safe before this
 * process writes a blob), blob files no row refers to (older than `graceMs`, so a write of this
 * process between its rename and its row is never taken), and rows whose references have all
 * gone. Returns what was removed.
 */
export async function sweepOrphanBlobs(db: Db, store: BlobStore, options: { now?: number; graceMs?: number; temps?: boolean } = {}): Promise<{ temps: number; files: number }> {
  const cutoff = (options.now ?? Date.now()) - (options.graceMs ?? 60 * 60 * 1000);
  const temps = options.temps === false ? 0 : await store.sweepTemps();
  const wanted = prepare<[string], number>(db, 'SELECT refs FROM blobs WHERE hash = ?').pluck();
  let files = 0;
  for (const hash of await store.list()) {
    if (!db.open) break;
    if ((wanted.get(hash) ?? 0) > 0) continue;
    const info = await store.stat(hash);
    if (!info || info.mtimeMs > cutoff) continue;
    // Re-checked after the await: a reference may have been added meanwhile.
    if ((wanted.get(hash) ?? 0) > 0) continue;
    prepare(db, 'DELETE FROM blobs WHERE hash = ? AND refs = 0').run(hash);
    if (await store.remove(hash)) files++;
  }
  return { temps, files };
}
