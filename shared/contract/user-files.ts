/**
 * Files from the user, as opaque references. The page never names a path: in Electron a dialog
 * in main or the preload (webUtils.getPathForFile on a dropped File) makes the reference; any
 * other file's bytes (browser mode, a File made in the page) go over the contract
 * (`userFiles.upload`) and main stages them on disk. Services only ever receive a `ref` and
 * resolve it in main.
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
/**
 * Largest `userFiles.upload` chunk. Electron's page sends BYTES_PER_MESSAGE (1 MiB) slices it
 * reads; browser mode sends 4 MiB slices as unread Blobs (renderer upload-bytes.ts), a quarter of
 * the round trips. Main holds at most SESSION_INBOUND_QUEUE + SESSION_SEND_WINDOW of them (32 MiB).
 */
export const UPLOAD_CHUNK_MAX_BYTES = 4 * 1024 * 1024;

/**
 * The one chunk an upload's session sends when its start asked for `lane` (browser mode): the
 * ticket that addresses its bytes lane, `POST /upload-lane/<lane>/<index>` with one chunk of at
 * most UPLOAD_CHUNK_MAX_BYTES per request, in index order (main/services/upload-lane.ts).
 */
/** Lane chunks main takes at once: the one being staged and those waiting behind it. */
export const UPLOAD_LANE_WINDOW = 4;

export interface UploadLaneTicket {
  lane: string;
}

export const userFilesContract = {
  pick: call<FileRef[]>()(PickFilesInputSchema),
  release: call<{ released: boolean }>()(z.object({ ref: FileRefIdSchema }).strict()),
  /**
   * Bytes only the page has (browser mode's files, Electron's Files made in the page), staged
   * through a session: one `{ data }` message per chunk of at most UPLOAD_CHUNK_MAX_BYTES, then close;
   * the result is the reference. Cancel (or the window or socket going away) removes the partial
   * copy; an upload that stalls or is larger than main takes is refused with a message.
   * `lane: true` (browser mode only): the bytes go over the loopback server's upload lane instead
   * of as messages; the session's one chunk is its ticket, and `close` still finishes the file.
   */
  upload: session<UploadLaneTicket, FileRef>()(
    z.object({ name: z.string().min(1).max(1024), type: z.string().max(255), size: z.number().int().nonnegative(), lane: z.literal(true).optional() }).strict(),
    z.object({ data: BytesSchema.refine((b) => b.byteLength <= UPLOAD_CHUNK_MAX_BYTES, 'a chunk is at most 4 MiB') }).strict(),
  ),
};

/**
 * Electron's one private channel for files from the page: a dropped File's disk path (from
 * `webUtils.getPathForFile` in the preload) registered as a reference. It carries a path, never
 * bytes, and stays off the contract on purpose: every contract operation is the page's to call,
 * and the page must never name a path. Replies are CallReply values.
 */
export const IPC_FILES = {
  fromPath: 'workbench-files:from-path',
} as const;

/** The part of a DOM File that `fromFile` reads (shared/ has no DOM types; a File fits). */
export interface FileLike {
  readonly name: string;
  readonly type: string;
  readonly size: number;
  slice(start?: number, end?: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

/**
 * Electron's `window.workbenchFiles` (exposed by the preload beside `window.workbench`): a dropped
 * File becomes a reference by its disk path; a File with none (made in the page) answers null, and
 * the page uploads its bytes over the contract. Resolves with a Reply (errors as values, code and
 * all: contextBridge would keep only a thrown Error's message), as `window.workbench` does.
 */
export interface WorkbenchFilesApi {
  pathRef(file: FileLike): Promise<Reply<FileRef | null>>;
}
