/**
 * The Files family (spec "Files", wire-notes §5): upload (multipart streamed from disk, with
 * progress and cancel), list / get / update (PUT JSON) / delete, public URL create / revoke, and
 * the content downloaded to a file. Every call gives a value, never throws for a failed request.
 */
import type { FileDeleted, FileList, FileListQuery, FileObject, FilePublicUrl, FileUpdate } from '../../shared/wire/files';
import type { ApiClient, ApiResult, RequestOptions } from './client';
import { downloadToFile, type DownloadedFile, type DownloadOptions } from './download';
import { filePartDescription, multipartBody, type MultipartField } from './multipart';

export const FILES_PATH = '/v1/files';

/** Cancellation and retry notifications for a Files call. */
export interface FileCallOptions {
  signal?: AbortSignal;
  onRetry?: RequestOptions['onRetry'];
}

/** An upload's progress (bytes of the multipart body, so the total is a little over the file's size). */
export interface UploadOptions extends FileCallOptions {
  onProgress?: (sentBytes: number, totalBytes: number) => void;
}

/** The file to upload: read from `path` as it is sent, announced as `filename`. */
export interface UploadSource {
  path: string;
  filename: string;
  contentType: string;
  /** Seconds from now (3600–2592000); sent before the file, as the service requires. */
  expiresAfter?: number;
}

/** The path of one file (`/v1/files/{id}`). */
export function filePath(id: string): string {
  return `${FILES_PATH}/${encodeURIComponent(id)}`;
}

/**
 * `POST /v1/files`. The body is streamed from disk and re-read for a retry; a service failure
 * (5xx) is retried, a 4xx is final, and a connection that drops mid-upload gives a `network`
 * error saying so (not retried: the caller offers "try again"). A missing or unreadable file is a
 * `file` error before anything is sent.
 */
export async function uploadFile(client: ApiClient, source: UploadSource, opts: UploadOptions = {}): Promise<ApiResult<FileObject>> {
  const fields: MultipartField[] = [];
  if (source.expiresAfter !== undefined) fields.push({ name: 'expires_after', value: String(source.expiresAfter) });
  const built = await multipartBody(fields, { path: source.path, filename: source.filename, contentType: source.contentType }, { onProgress: opts.onProgress });
  const request: RequestOptions = { method: 'POST', path: FILES_PATH, signal: opts.signal, onRetry: opts.onRetry };
  if (!built.ok) {
    const captured = client.describe({ ...request, body: { multipart: [...fields, filePartDescription(source)] } });
    return { ok: false, error: built.error, meta: null, captured, retries: 0, totalMs: 0 };
  }
  return client.json<FileObject>({ ...request, body: built.body });
}

/** `GET /v1/files` (one page; pass the returned `pagination_token` for the next). */
export function listFiles(client: ApiClient, query: FileListQuery = {}, opts: FileCallOptions = {}): Promise<ApiResult<FileList>> {
  return client.json<FileList>({ method: 'GET', path: FILES_PATH, query: { ...query }, ...opts });
}

/** `GET /v1/files/{id}`: 404 when missing, deleted or expired. */
export function getFile(client: ApiClient, id: string, opts: FileCallOptions = {}): Promise<ApiResult<FileObject>> {
  return client.json<FileObject>({ method: 'GET', path: filePath(id), ...opts });
}

/** `PUT /v1/files/{id}` with JSON `{filename?, expires_after?}`; answers the updated File. */
export function updateFile(client: ApiClient, id: string, update: FileUpdate, opts: FileCallOptions = {}): Promise<ApiResult<FileObject>> {
  return client.json<FileObject>({ method: 'PUT', path: filePath(id), body: update, ...opts });
}

/** `DELETE /v1/files/{id}`. */
export function deleteFile(client: ApiClient, id: string, opts: FileCallOptions = {}): Promise<ApiResult<FileDeleted>> {
  return client.json<FileDeleted>({ method: 'DELETE', path: filePath(id), ...opts });
}

/** `POST /v1/files/{id}/public-url` with `{}` or `{expires_after}` (seconds). */
export function createPublicUrl(
  client: ApiClient,
  id: string,
  params: { expiresAfter?: number } = {},
  opts: FileCallOptions = {},
): Promise<ApiResult<FilePublicUrl>> {
  const body = params.expiresAfter === undefined ? {} : { expires_after: params.expiresAfter };
  return client.json<FilePublicUrl>({ method: 'POST', path: `${filePath(id)}/public-url`, body, ...opts });
}

/**
 * `DELETE /v1/files/{id}/public-url`. The answer's shape is not documented (wire-notes §5): the
 * value is whatever JSON came back (the File without its URL, or null for an empty body).
 */
export function revokePublicUrl(client: ApiClient, id: string, opts: FileCallOptions = {}): Promise<ApiResult<FileObject | null>> {
  return client.json<FileObject | null>({ method: 'DELETE', path: `${filePath(id)}/public-url`, ...opts });
}

/** `GET /v1/files/{id}/content` saved at `destFile` (never half-written; see download.ts). */
export function downloadFileContent(
  client: ApiClient,
  id: string,
  destFile: string,
  opts: Omit<DownloadOptions, 'query'> & { format?: 'original' | 'text' } = {},
): Promise<ApiResult<DownloadedFile>> {
  const { format, ...rest } = opts;
  return downloadToFile(client, `${filePath(id)}/content`, destFile, { ...rest, query: format ? { format } : undefined });
}
