/**
 * The Files family: upload (a stream, so the page sees progress and Cancel really stops it), the
 * service's list / get / update / delete / public URL, download (a stream with progress), and
 * `local`, the app's own offline record of every file uploaded or seen. Every answer is a
 * FileRecord: the service's File as this app last knew it, plus what happened to it here
 * (uploading, cancelled, failed, deleted, expired) in words a person can act on.
 */
import { z } from 'zod';
import { FILE_LIMITS } from '../../wire/files';
import { call, event, stream } from '../../contract/define';
import { RunIdSchema } from '../../contract/run-id';
import { ConnectionIdSchema } from '../../contract/text';
import { FileRefIdSchema } from '../../contract/user-files';

/** A file id as the service gives it (`file_<uuid>` on the sandbox). */
export const FileIdSchema = z
  .string()
  .trim()
  .min(1, 'enter a file id')
  .max(200)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'a file id is letters, digits, dashes and underscores');

export const FILE_STATUSES = ['uploading', 'complete', 'cancelled', 'failed', 'deleted', 'expired'] as const;
export type FileStatus = (typeof FILE_STATUSES)[number];

/** One file as this app knows it (uploaded from here, or seen in a list). Times are epoch ms. */
export interface FileRecord {
  /** The app's own id for the row: stable from the first byte of an upload, before the service names it. */
  key: string;
  /** The service's id; null while uploading and for an upload that never finished. */
  id: string | null;
  connectionId: string;
  filename: string;
  bytes: number;
  /** MIME type as the user's file gave it ('' when unknown). */
  contentType: string;
  createdAt: number | null;
  expiresAt: number | null;
  publicUrl: string | null;
  publicUrlExpiresAt: number | null;
  status: FileStatus;
  /** Why a file is cancelled, failed, deleted or expired, for a person. */
  statusMessage: string | null;
  /** When the app last had word of it from the service. */
  lastSeenAt: number;
  /** The upload's run in History, when it was uploaded from here. */
  runId: string | null;
}

/** Seconds from the upload (or the update) until the service deletes the file. */
export const ExpiresAfterSchema = z
  .number()
  .int('whole seconds')
  .min(FILE_LIMITS.expiresAfterMinSeconds, 'a file expires at the earliest 1 hour after upload')
  .max(FILE_LIMITS.expiresAfterMaxSeconds, 'a file expires at the latest 30 days after upload');

export const FileUploadSchema = z
  .object({
    connectionId: ConnectionIdSchema.optional(),
    /** A file the user gave (userFiles.pick, a drop, or browser-mode staging). */
    ref: FileRefIdSchema,
    expiresAfter: ExpiresAfterSchema.optional(),
  })
  .strict();
export type FileUploadInput = z.input<typeof FileUploadSchema>;

/** What an upload sends the page while it lasts. */
export type FileUploadChunk =
  | { type: 'started'; key: string; runId: string; filename: string; total: number }
  | { type: 'progress'; sent: number; total: number; bytesPerSecond: number };

/**
 * An upload the user cancelled before main began sending it: while the page was still handing
 * the bytes to the workbench (browser mode's staging). Nothing reached the service; main records
 * the run (cancelled) and the file's row, so every upload the user started is in History.
 */
export const FileUploadCancelledSchema = z
  .object({
    connectionId: ConnectionIdSchema.optional(),
    name: z.string().min(1).max(1000),
    size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    type: z.string().max(255),
    /** Bytes the page had handed to the workbench when the user cancelled. */
    staged: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    expiresAfter: ExpiresAfterSchema.optional(),
  })
  .strict()
  .refine((c) => c.staged <= c.size, 'more bytes staged than the file has');
export type FileUploadCancelledInput = z.input<typeof FileUploadCancelledSchema>;

export const FILE_SORT_FIELDS = ['created_at', 'filename', 'size'] as const;

export const FileListSchema = z
  .object({
    connectionId: ConnectionIdSchema.optional(),
    sortBy: z.enum(FILE_SORT_FIELDS).default('created_at'),
    order: z.enum(['asc', 'desc']).default('desc'),
    limit: z.number().int().min(FILE_LIMITS.listLimitMin).max(FILE_LIMITS.listLimitMax).default(20),
    paginationToken: z.string().max(500).optional(),
    /** AIP-160 (shared/aip160); the page checks it before sending, the service has the last word. */
    filter: z.string().max(4000).optional(),
  })
  .strict();
export type FileListInput = z.input<typeof FileListSchema>;

/** One page of the service's list. `nextToken` is null at the end (a page shorter than the limit). */
export interface FileListPage {
  items: FileRecord[];
  nextToken: string | null;
}

export const FileRefSchema = z.object({ connectionId: ConnectionIdSchema.optional(), id: FileIdSchema }).strict();

export const FileUpdateSchema = z
  .object({
    connectionId: ConnectionIdSchema.optional(),
    id: FileIdSchema,
    filename: z.string().trim().min(1, 'a file needs a name').max(255).regex(/^[^/\\\0]+$/, 'a file name cannot contain slashes').optional(),
    /** Seconds from now; null removes the expiry. */
    expiresAfter: ExpiresAfterSchema.nullable().optional(),
  })
  .strict()
  .refine((u) => u.filename !== undefined || u.expiresAfter !== undefined, 'change the name or the expiry');

export const FilePublicUrlSchema = z
  .object({ connectionId: ConnectionIdSchema.optional(), id: FileIdSchema, expiresAfter: z.number().int().min(60).max(FILE_LIMITS.expiresAfterMaxSeconds).optional() })
  .strict();

/** What a download sends the page while it lasts. */
export type FileDownloadChunk = { type: 'progress'; received: number; total: number | null; bytesPerSecond: number };

/**
 * Where a download went. Electron: the place the user chose (`savedTo`). Browser mode: a one-time
 * link the page opens so the browser's own download saves it (`url`, valid for a minute).
 * `cancelled` when the user closed the save dialog.
 */
export interface FileDownloadResult {
  filename: string;
  bytes: number;
  savedTo?: string;
  url?: string;
  cancelled?: boolean;
}

export const FileLocalSchema = z
  .object({
    /** Words matched against the name and id (case-insensitive, every word must match). */
    query: z.string().max(200).optional(),
    connectionId: ConnectionIdSchema.optional(),
    limit: z.number().int().min(1).max(1000).default(200),
  })
  .strict()
  .optional();

export const filesContract = {
  upload: stream<FileUploadChunk, FileRecord>()(FileUploadSchema),
  /** Records an upload cancelled while the page staged it (see FileUploadCancelledSchema). */
  uploadCancelled: call<FileRecord>()(FileUploadCancelledSchema),
  list: call<FileListPage>()(FileListSchema),
  /** GET /v1/files/{id}: refreshes the record; a 404 marks it deleted or expired (returned, not thrown). */
  get: call<FileRecord>()(FileRefSchema),
  /** PUT /v1/files/{id}: new name and/or expiry. */
  update: call<FileRecord>()(FileUpdateSchema),
  /** DELETE /v1/files/{id}: the record stays, marked deleted. */
  remove: call<FileRecord>()(FileRefSchema),
  download: stream<FileDownloadChunk, FileDownloadResult>()(FileRefSchema),
  createPublicUrl: call<FileRecord>()(FilePublicUrlSchema),
  revokePublicUrl: call<FileRecord>()(FileRefSchema),
  /** Every file this app uploaded or saw, newest first, offline. */
  local: call<FileRecord[]>()(FileLocalSchema),
  /** The file an upload run made (History's entry shows it); null when the run uploaded nothing. */
  ofRun: call<FileRecord | null>()(z.object({ runId: RunIdSchema }).strict()),
  /** A record changed (any window's upload, delete, rename...). */
  changed: event<FileRecord>(),
};

export { multipartOf, type MultipartDescription, type MultipartPart } from '../../contract/multipart';
