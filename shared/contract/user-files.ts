/**
 * Files from the user, as opaque references. The page never names a path: in Electron a dialog
 * in main or the preload (webUtils.getPathForFile on a dropped File) makes the reference; in
 * browser mode the page streams the bytes to main, which stages them on disk. Services only ever
 * receive a `ref` and resolve it in main.
 */
import { z } from 'zod';
import { BytesSchema } from './bytes';
import { call, session } from './define';
import type { Reply } from './protocol';

/** An opaque reference id: 128 random bits, URL-safe. */
export const FileRefIdSchema = z.string().regex(/^ref_[A-Za-z0-9_-]{16,64}$/, 'not a file reference');

/** What the page may know about a file the user gave: never its path. */
export interface FileRef {
  ref: string;
  name: string;
  size: number;
  /** MIME type ('' when unknown). */
  type: string;
}

/** `userFiles.pick`: one file unless `multiple`; `title` is the dialog's title. */
export const PickFilesInputSchema = z
  .object({ multiple: z.boolean().optional(), title: z.string().max(200).optional() })
  .strict()
  .optional();
export type PickFilesInput = z.infer<typeof PickFilesInputSchema>;

/**
 * Files from the user. `pick` opens the native dialog (Electron) and gives [] when the user
 * cancels; browser mode has no native dialog and answers `unsupported`, so the page uses an
 * <input type=file> and uploads instead. `release` forgets a reference (and a staged copy).
 */
export const userFilesContract = {
  pick: call<FileRef[]>()(PickFilesInputSchema),
  release: call<{ released: boolean }>()(z.object({ ref: FileRefIdSchema }).strict()),
  /**
   * Bytes only the page has (Electron: a File made in the page), staged through a session: one
   * `{ data }` message per chunk of at most IPC_STAGE_CHUNK_BYTES, then close; the result is the
   * reference. Cancel (or the window going away) removes the partial copy.
   */
  upload: session<never, FileRef>()(
    z.object({ name: z.string().min(1).max(1024), type: z.string().max(255), size: z.number().int().nonnegative() }).strict(),
    z.object({ data: BytesSchema.refine((b) => b.byteLength <= 1024 * 1024, 'a chunk is at most 1 MiB') }).strict(),
  ),
};

/** Browser mode's upload route: POST the raw bytes here (see main/host/staging-route.ts). */
export const STAGE_ROUTE = '/stage';
/** The header carrying the file's name, percent-encoded (encodeURIComponent). */
export const STAGE_NAME_HEADER = 'X-Workbench-File-Name';
/**
 * Optional: the page's id for an upload (16-64 of A-Z a-z 0-9 _ -; one id may cover a batch of
 * files). `DELETE /stage/<id>` (same Bearer token) then stops its running POSTs, waits until their
 * partial files are gone, and removes the files staged under it; it answers
 * `{ "aborted": n, "released": m }`, also for an id it does not know (a Cancel may always send it).
 */
export const STAGE_UPLOAD_ID_HEADER = 'X-Workbench-Upload-Id';

/**
 * Electron's one private channel for files from the page: a dropped File's disk path (from
 * `webUtils.getPathForFile` in the preload) registered as a reference. It stays off the contract
 * on purpose: every contract operation is the page's to call, and the page must never name a
 * path. Bytes take the contract (`userFiles.upload`). Replies are CallReply values.
 */
export const IPC_FILES = {
  fromPath: 'workbench-files:from-path',
} as const;

/** Size of one chunk the preload sends for a File with no disk path. */
export const IPC_STAGE_CHUNK_BYTES = 1024 * 1024;

/** The part of a DOM File that `fromFile` reads (shared/ has no DOM types; a File fits). */
export interface FileLike {
  readonly name: string;
  readonly type: string;
  readonly size: number;
  slice(start?: number, end?: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

/**
 * Electron's `window.workbenchFiles` (exposed by the preload beside `window.workbench`): a dropped
 * File becomes a reference by its disk path; a File with none (made in the page) is streamed.
 * Resolves with a Reply (errors as values, code and all: contextBridge would keep only a thrown
 * Error's message), as `window.workbench` does.
 */
export interface WorkbenchFilesApi {
  fromFile(file: FileLike): Promise<Reply<FileRef>>;
}
