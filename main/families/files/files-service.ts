/**
 * The Files manager's service: uploads (files-upload.ts), the service's list, get, update, delete
 * and public URLs, downloads (files-download.ts), and the app's offline record of every file it
 * uploaded or saw (store/files). Every answer that describes a file refreshes its row; a 404
 * marks it deleted or expired with a message that says which, so the list stays truthful offline.
 */
import type { ApiResult } from '../../api/client';
import { toWorkbenchError } from '../../api/errors';
import { WorkbenchFailure } from '../../../shared/contract/errors';
import type { FileDownloadResult, FileListPage, FileRecord } from '../../../shared/families/files/contract';
import type { FileObject } from '../../../shared/wire/files';
import { expiredMessage, getFileById, getFileByKey, getFileByRun, listLocalFiles, markFileDeleted, setFileStatus, setPublicUrl, upsertSeenFile } from '../../store/files';
import type { ResolvedConnection } from '../../services/connections-service';
import type { FilesServiceDeps } from './files-deps';
import { downloadFile, type DownloadContext } from './files-download';
import { newFileKey, recordCancelledBeforeSending, uploadFile, type UploadContext } from './files-upload';

export interface FileRefInput {
  connectionId?: string;
  id: string;
}

export class FilesService {
  private readonly now: () => number;

  constructor(private readonly deps: FilesServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  upload(input: { connectionId?: string; ref: string; expiresAfter?: number }, ctx: UploadContext): Promise<FileRecord> {
    return uploadFile(this.deps, input, ctx);
  }

  /** Records an upload cancelled before main sent anything (the page was staging it). */
  uploadCancelled(input: { connectionId?: string; name: string; size: number; type: string; staged: number; expiresAfter?: number }): FileRecord {
    return recordCancelledBeforeSending(this.deps, input);
  }

  /** One page of the service's list; each file is recorded (or refreshed) locally. */
  async list(input: { connectionId?: string; sortBy: 'created_at' | 'filename' | 'size'; order: 'asc' | 'desc'; limit: number; paginationToken?: string; filter?: string }): Promise<FileListPage> {
    const connection = this.deps.connections.resolve(input.connectionId);
    const result = await this.deps.api.listFiles(connection.client, {
      limit: input.limit,
      order: input.order,
      sort_by: input.sortBy,
      ...(input.paginationToken ? { pagination_token: input.paginationToken } : {}),
      ...(input.filter?.trim() ? { filter: input.filter.trim() } : {}),
    });
    const list = this.value(result);
    const items = list.data.map((file) => this.seen(connection, file));
    return { items, nextToken: list.data.length < input.limit ? null : list.pagination_token };
  }

  /** GET: refreshes the record; a 404 marks it deleted or expired and returns it so marked. */
  async get(ref: FileRefInput): Promise<FileRecord> {
    const connection = this.deps.connections.resolve(ref.connectionId);
    const result = await this.deps.api.getFile(connection.client, ref.id);
    if (result.ok) return this.seen(connection, result.value);
    return this.goneOrThrow(connection, ref.id, result);
  }

  /** PUT: a new name and/or expiry (seconds from now; null: never). */
  async update(input: FileRefInput & { filename?: string; expiresAfter?: number | null }): Promise<FileRecord> {
    const connection = this.deps.connections.resolve(input.connectionId);
    const result = await this.deps.api.updateFile(connection.client, input.id, {
      ...(input.filename !== undefined ? { filename: input.filename } : {}),
      ...(input.expiresAfter !== undefined ? { expires_after: input.expiresAfter } : {}),
    });
    if (result.ok) return this.seen(connection, result.value);
    return this.goneOrThrow(connection, input.id, result, true);
  }

  /** DELETE: the record stays, marked deleted, so the list of what you uploaded keeps it. */
  async remove(ref: FileRefInput): Promise<FileRecord> {
    const connection = this.deps.connections.resolve(ref.connectionId);
    const result = await this.deps.api.deleteFile(connection.client, ref.id);
    if (!result.ok) return this.goneOrThrow(connection, ref.id, result);
    const known = this.known(connection, ref.id);
    markFileDeleted(this.deps.db, known.key, this.now());
    return this.changed(known.key);
  }

  async createPublicUrl(input: FileRefInput & { expiresAfter?: number }): Promise<FileRecord> {
    const connection = this.deps.connections.resolve(input.connectionId);
    const result = await this.deps.api.createPublicUrl(connection.client, input.id, input.expiresAfter !== undefined ? { expiresAfter: input.expiresAfter } : undefined);
    if (!result.ok) return this.goneOrThrow(connection, input.id, result, true);
    const known = this.known(connection, input.id);
    const expires = typeof result.value.public_url_expires_at === 'number' ? result.value.public_url_expires_at * 1000 : null;
    setPublicUrl(this.deps.db, connection.profile.id, input.id, result.value.public_url, expires);
    return this.changed(known.key);
  }

  /** Revoking the URL leaves the file itself alone. */
  async revokePublicUrl(ref: FileRefInput): Promise<FileRecord> {
    const connection = this.deps.connections.resolve(ref.connectionId);
    const result = await this.deps.api.revokePublicUrl(connection.client, ref.id);
    if (!result.ok) return this.goneOrThrow(connection, ref.id, result, true);
    const known = this.known(connection, ref.id);
    setPublicUrl(this.deps.db, connection.profile.id, ref.id, null, null);
    return this.changed(known.key);
  }

  async download(ref: FileRefInput, ctx: DownloadContext): Promise<FileDownloadResult> {
    const connection = this.deps.connections.resolve(ref.connectionId);
    const file = getFileById(this.deps.db, connection.profile.id, ref.id, this.now()) ?? (await this.get(ref));
    if (file.status === 'deleted' || file.status === 'expired' || !file.id) {
      throw new WorkbenchFailure({ code: 'not_found', message: file.statusMessage ?? `The service no longer has ${ref.id}.` });
    }
    return downloadFile(this.deps, connection, { ...file, id: file.id }, ctx, (serviceMessage) => this.markGone(connection, ref.id, serviceMessage)!);
  }

  /** Every known file, newest first (offline). */
  local(input: { query?: string; connectionId?: string; limit: number } | undefined): FileRecord[] {
    return listLocalFiles(this.deps.db, input ?? { limit: 200 }, this.now());
  }

  ofRun({ runId }: { runId: string }): FileRecord | null {
    return getFileByRun(this.deps.db, runId, this.now());
  }

  private value<T>(result: ApiResult<T>): T {
    if (!result.ok) throw new WorkbenchFailure(toWorkbenchError(result.error));
    return result.value;
  }

  private seen(connection: ResolvedConnection, file: FileObject): FileRecord {
    const key = upsertSeenFile(this.deps.db, connection.profile.id, file, this.now(), newFileKey);
    return this.changed(key);
  }

  private known(connection: ResolvedConnection, id: string): FileRecord {
    const found = getFileById(this.deps.db, connection.profile.id, id, this.now());
    if (found) return found;
    // Acted on by id without having been listed: record it so the change has a row to land on.
    const key = upsertSeenFile(this.deps.db, connection.profile.id, { id, object: 'file', bytes: 0, created_at: 0, expires_at: null, filename: id }, this.now(), newFileKey);
    return getFileByKey(this.deps.db, key, this.now())!;
  }

  private changed(key: string): FileRecord {
    const record = getFileByKey(this.deps.db, key, this.now())!;
    this.deps.emitChanged(record);
    return record;
  }

  /**
   * The service answered 404 for `id`: a known file is marked expired (past its expiry) or
   * deleted and returned, or thrown as `not_found` when `always` asks for a failure (an action
   * that could not be done). Any other failure is thrown as it is.
   */
  private goneOrThrow(connection: ResolvedConnection, id: string, result: ApiResult<unknown> & { ok: false }, always = false): FileRecord {
    const error = toWorkbenchError(result.error);
    if (result.error.status !== 404) throw new WorkbenchFailure(error);
    const gone = this.markGone(connection, id, result.error.message);
    if (!gone || always) throw new WorkbenchFailure({ ...error, code: 'not_found', message: gone?.statusMessage ?? `The service has no file ${id} (it was deleted, expired, or belongs to another team).` });
    return gone;
  }

  /**
   * Marks a file the service answered 404 for. It expired when our clock is past its expiry or
   * the service's own words say so: the service's clock decides, and it can run ahead of ours
   * (skew, or the sandbox's clock moved on by its control API), which read "deleted (here or by
   * another client)" for a file the service had just said "has expired".
   */
  private markGone(connection: ResolvedConnection, id: string, serviceMessage = ''): FileRecord | null {
    const known = getFileById(this.deps.db, connection.profile.id, id, this.now());
    if (!known) return null;
    if (known.status === 'expired' || known.status === 'deleted') return known;
    const expired = (known.expiresAt !== null && this.now() >= known.expiresAt) || /\bexpired\b/i.test(serviceMessage);
    setFileStatus(
      this.deps.db,
      known.key,
      expired ? 'expired' : 'deleted',
      !expired
        ? 'The service no longer has this file: it was deleted (here or by another client). Upload it again to use it.'
        : known.expiresAt !== null
          ? expiredMessage(known.expiresAt)
          : 'The service says this file expired; it no longer has it. Upload it again to use it.',
    );
    return this.changed(known.key);
  }
}
