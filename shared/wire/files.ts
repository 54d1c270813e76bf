/**
 * Wire shapes of the Files API (spec/service.md "File" and "Files"; wire-notes §5). Shared by the
 * client (main/api/files.ts), the sandbox (main/sandbox/files) and the Files views.
 */

/** A file as the service describes it. `public_url*` only while a public URL is active. */
export interface FileObject {
  id: string;
  object: 'file';
  bytes: number;
  /** Unix seconds. */
  created_at: number;
  /** Unix seconds; null when the file does not expire. */
  expires_at: number | null;
  filename: string;
  public_url?: string | null;
  public_url_expires_at?: number | null;
  /** Compatibility only; the service ignores it. */
  purpose?: string;
  /** Some clients read it; the sandbox sends `"processed"` for a complete upload. */
  status?: string;
}

/** `GET /v1/files`: the token is always returned; the end is reached when `data` is shorter than `limit`. */
export interface FileList {
  data: FileObject[];
  pagination_token: string | null;
}

export interface FileDeleted {
  id: string;
  object: 'file';
  deleted: boolean;
}

/** `POST /v1/files/{id}/public-url` answer. */
export interface FilePublicUrl {
  public_url: string;
  public_url_expires_at?: number | null;
}

/** `PUT /v1/files/{id}` (JSON metadata update; wire-notes §5 suggests this shape). */
export interface FileUpdate {
  filename?: string;
  /** Seconds from now, 3600–2592000; null removes the expiry. */
  expires_after?: number | null;
}

/** Query of `GET /v1/files`. */
export interface FileListQuery {
  limit?: number;
  order?: 'asc' | 'desc';
  sort_by?: 'created_at' | 'filename' | 'size';
  pagination_token?: string;
  /** AIP-160 expression (shared/aip160). */
  filter?: string;
}

/** Limits of the Files API. The size limit is what wire-notes observed; the sandbox makes it an option. */
export const FILE_LIMITS = {
  expiresAfterMinSeconds: 3600,
  expiresAfterMaxSeconds: 2_592_000,
  listLimitMin: 1,
  listLimitMax: 100,
  listLimitDefault: 100,
  maxFileBytes: 50 * 1024 * 1024,
} as const;
