/**
 * What the Files service is built with: the Files API functions (main/api/files.ts, passed in so
 * tests can script the service's answers), the user's file references, the store, the event
 * emitter, and — in Electron — the save dialog. Kept apart so the upload, download and metadata
 * modules share one definition.
 */
import type { ApiClient, ApiResult } from '../../api/client';
import type { FileRecord } from '../../../shared/families/files/contract';
import type { FileDeleted, FileList, FileListQuery, FileObject, FilePublicUrl, FileUpdate } from '../../../shared/wire/files';
import type { Db } from '../../store/db';
import type { ConnectionsService } from '../../services/connections-service';
import type { DownloadTickets } from '../../services/download-tickets';

/** Progress of a transfer: bytes so far and the whole size (null when the service did not say). */
export type TransferProgress = (done: number, total: number | null) => void;

/** The Files API as main/api/files.ts exports it. */
export interface FilesApi {
  uploadFile(
    client: ApiClient,
    file: { path: string; filename: string; contentType: string; expiresAfter?: number },
    options: { signal: AbortSignal; onProgress: TransferProgress },
  ): Promise<ApiResult<FileObject>>;
  listFiles(client: ApiClient, query: FileListQuery): Promise<ApiResult<FileList>>;
  getFile(client: ApiClient, id: string): Promise<ApiResult<FileObject>>;
  updateFile(client: ApiClient, id: string, update: FileUpdate): Promise<ApiResult<FileObject>>;
  deleteFile(client: ApiClient, id: string): Promise<ApiResult<FileDeleted>>;
  createPublicUrl(client: ApiClient, id: string, options?: { expiresAfter?: number }): Promise<ApiResult<FilePublicUrl>>;
  revokePublicUrl(client: ApiClient, id: string): Promise<ApiResult<unknown>>;
  downloadFileContent(
    client: ApiClient,
    id: string,
    destFile: string,
    options: { signal: AbortSignal; onProgress: TransferProgress },
  ): Promise<ApiResult<{ bytes: number }>>;
}

/** A user file behind an opaque reference (main/services/user-files.ts). */
export interface UserFileSource {
  resolve(ref: string): { path: string; name: string; size: number; type: string };
  /** Forgets a reference (deleting a staged copy); done once its upload succeeded. */
  release(ref: string): boolean;
}

export interface FilesServiceDeps {
  db: Db;
  connections: ConnectionsService;
  api: FilesApi;
  userFiles: UserFileSource;
  /** Pushes `files.changed` to every window. */
  emitChanged(record: FileRecord): void;
  /**
   * Electron: asks where to save a download (null when the user closes the dialog). Absent in
   * browser mode, where the page's own download saves it from a one-time link (`tickets`).
   */
  chooseSaveTarget?: (suggestedName: string) => Promise<string | null>;
  tickets: DownloadTickets;
  /** Largest upload; default FILE_LIMITS.maxFileBytes. */
  maxUploadBytes?: number;
  now?: () => number;
}
