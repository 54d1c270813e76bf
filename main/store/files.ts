/**
 * The files repository (table `files`, migration 0007): a row per file uploaded from here (written
 * as `uploading` before the first byte leaves) or seen in the service's answers, keyed by the
 * app's own `key`. Reads apply the expiry against `now`, so a file shows as expired offline,
 * without asking the service.
 */
import type { FileRecord, FileStatus } from '../../shared/families/files/contract';
import type { FileObject } from '../../shared/wire/files';
import type { Db } from './db';
import { prepare, timed } from './query';

interface FileRow {
  key: string;
  file_id: string | null;
  connection_id: string;
  filename: string;
  bytes: number;
  content_type: string;
  created_at: number | null;
  expires_at: number | null;
  public_url: string | null;
  public_url_expires_at: number | null;
  status: string;
  status_message: string | null;
  last_seen_at: number;
  run_id: string | null;
}

const COLUMNS = `key, file_id, connection_id, filename, bytes, content_type, created_at, expires_at, public_url,
  public_url_expires_at, status, status_message, last_seen_at, run_id`;

/** What the app says about a file whose expiry has passed. */
export function expiredMessage(expiresAt: number): string {
  return `This file expired on ${new Date(expiresAt).toISOString().replace('T', ' ').slice(0, 16)} UTC; the service no longer has it. Upload it again to use it.`;
}

/** An upload about to start: recorded before its first byte leaves. */
export interface NewUpload {
  key: string;
  connectionId: string;
  filename: string;
  bytes: number;
  contentType: string;
  runId: string | null;
  now: number;
}

export function insertUpload(db: Db, upload: NewUpload): void {
  timed(db, 'insertUpload', () =>
    prepare(
      db,
      `INSERT INTO files (key, connection_id, filename, bytes, content_type, status, last_seen_at, run_id)
       VALUES (@key, @connectionId, @filename, @bytes, @contentType, 'uploading', @now, @runId)`,
    ).run(upload),
  );
}

/** The service's File fields, as the row stores them (seconds become ms). */
function fileFields(file: FileObject): Record<string, unknown> {
  return {
    fileId: file.id,
    filename: file.filename,
    bytes: file.bytes,
    createdAt: typeof file.created_at === 'number' ? file.created_at * 1000 : null,
    expiresAt: typeof file.expires_at === 'number' ? file.expires_at * 1000 : null,
    publicUrl: file.public_url ?? null,
    publicUrlExpiresAt: typeof file.public_url_expires_at === 'number' ? file.public_url_expires_at * 1000 : null,
  };
}

/** The upload `key` finished: the service's File is now the record. */
export function completeUpload(db: Db, key: string, file: FileObject, now: number): void {
  timed(db, 'completeUpload', () =>
    prepare(
      db,
      `UPDATE files SET file_id = @fileId, filename = @filename, bytes = @bytes, created_at = @createdAt,
         expires_at = @expiresAt, public_url = @publicUrl, public_url_expires_at = @publicUrlExpiresAt,
         status = 'complete', status_message = NULL, last_seen_at = @now
       WHERE key = @key`,
    ).run({ key, now, ...fileFields(file) }),
  );
}

/** Sets the status of row `key` and why. Returns false when there is no such row. */
export function setFileStatus(db: Db, key: string, status: FileStatus, message: string | null): boolean {
  return timed(db, 'setFileStatus', () => prepare(db, 'UPDATE files SET status = ?, status_message = ? WHERE key = ?').run(status, message, key).changes > 0);
}

/**
 * The service confirmed a delete at `now`: the row stays, marked deleted, and `last_seen_at` is
 * when (the page writes the date in its own format, like every other date it shows).
 */
export function markFileDeleted(db: Db, key: string, now: number): boolean {
  return timed(db, 'markFileDeleted', () =>
    prepare(db, `UPDATE files SET status = 'deleted', status_message = ?, last_seen_at = ? WHERE key = ?`).run('Deleted from the service.', now, key).changes > 0,
  );
}

/**
 * The service described a file (a list, a get, an update): add it, or refresh what is known.
 * Returns the row's key. A file the service describes exists, so its status is `complete`.
 */
export function upsertSeenFile(db: Db, connectionId: string, file: FileObject, now: number, newKey: () => string): string {
  return timed(db, 'upsertSeenFile', () =>
    db.transaction(() => {
      const existing = prepare<[string, string], { key: string }>(db, 'SELECT key FROM files WHERE connection_id = ? AND file_id = ?').get(connectionId, file.id);
      const key = existing?.key ?? newKey();
      const params = { key, connectionId, now, ...fileFields(file) };
      if (existing) {
        prepare(
          db,
          `UPDATE files SET filename = @filename, bytes = @bytes, created_at = @createdAt, expires_at = @expiresAt,
             public_url = @publicUrl, public_url_expires_at = @publicUrlExpiresAt, status = 'complete',
             status_message = NULL, last_seen_at = @now
           WHERE key = @key`,
        ).run(params);
      } else {
        prepare(
          db,
          `INSERT INTO files (key, file_id, connection_id, filename, bytes, created_at, expires_at, public_url,
             public_url_expires_at, status, last_seen_at)
           VALUES (@key, @fileId, @connectionId, @filename, @bytes, @createdAt, @expiresAt, @publicUrl,
             @publicUrlExpiresAt, 'complete', @now)`,
        ).run(params);
      }
      return key;
    })(),
  );
}

/** Records a public URL (or its revocation, with nulls) on a known file. */
export function setPublicUrl(db: Db, connectionId: string, fileId: string, url: string | null, expiresAt: number | null): boolean {
  return timed(db, 'setPublicUrl', () =>
    prepare(db, 'UPDATE files SET public_url = ?, public_url_expires_at = ? WHERE connection_id = ? AND file_id = ?').run(url, expiresAt, connectionId, fileId).changes > 0,
  );
}

export function getFileByKey(db: Db, key: string, now: number): FileRecord | null {
  const row = timed(db, 'getFileByKey', () => prepare<[string], FileRow>(db, `SELECT ${COLUMNS} FROM files WHERE key = ?`).get(key));
  return row ? toRecord(row, now) : null;
}

export function getFileById(db: Db, connectionId: string, fileId: string, now: number): FileRecord | null {
  const row = timed(db, 'getFileById', () =>
    prepare<[string, string], FileRow>(db, `SELECT ${COLUMNS} FROM files WHERE connection_id = ? AND file_id = ?`).get(connectionId, fileId),
  );
  return row ? toRecord(row, now) : null;
}

/** The file uploaded by run `runId`, for its History entry. */
export function getFileByRun(db: Db, runId: string, now: number): FileRecord | null {
  const row = timed(db, 'getFileByRun', () => prepare<[string], FileRow>(db, `SELECT ${COLUMNS} FROM files WHERE run_id = ?`).get(runId));
  return row ? toRecord(row, now) : null;
}

export interface LocalFilesQuery {
  query?: string;
  connectionId?: string;
  limit: number;
}

/** Every known file, newest first; each word of `query` must appear in the name or the id. */
export function listLocalFiles(db: Db, q: LocalFilesQuery, now: number): FileRecord[] {
  const where: string[] = [];
  const params: Record<string, unknown> = { limit: q.limit };
  if (q.connectionId) {
    where.push('connection_id = @connectionId');
    params.connectionId = q.connectionId;
  }
  const words = (q.query ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 10);
  words.forEach((word, i) => {
    // LIKE with an escape so `_` and `%` in a file name are literal.
    where.push(`(filename LIKE @w${i} ESCAPE '\\' OR file_id LIKE @w${i} ESCAPE '\\')`);
    params[`w${i}`] = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  });
  const sql = `SELECT ${COLUMNS} FROM files ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY COALESCE(created_at, last_seen_at) DESC, key DESC LIMIT @limit`;
  const rows = timed(db, 'listLocalFiles', () => prepare<[Record<string, unknown>], FileRow>(db, sql).all(params));
  return rows.map((r) => toRecord(r, now));
}

/**
 * At start-up: uploads left `uploading` by a crash become `failed`: the service either never got
 * the whole file or answered a window that is gone. Returns how many.
 */
export function markInterruptedUploads(db: Db): number {
  return timed(db, 'markInterruptedUploads', () =>
    prepare(db, `UPDATE files SET status = 'failed', status_message = ? WHERE status = 'uploading'`).run(
      'The app stopped during this upload, so it did not finish. Upload the file again.',
    ).changes,
  );
}

function toRecord(row: FileRow, now: number): FileRecord {
  const expired = row.status === 'complete' && row.expires_at !== null && now >= row.expires_at;
  return {
    key: row.key,
    id: row.file_id,
    connectionId: row.connection_id,
    filename: row.filename,
    bytes: row.bytes,
    contentType: row.content_type,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    publicUrl: row.public_url,
    publicUrlExpiresAt: row.public_url_expires_at,
    status: expired ? 'expired' : (row.status as FileStatus),
    statusMessage: expired ? expiredMessage(row.expires_at!) : row.status_message,
    lastSeenAt: row.last_seen_at,
    runId: row.run_id,
  };
}
