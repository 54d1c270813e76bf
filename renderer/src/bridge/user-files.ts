/**
 * Files from the page -> FileRefs main can use, the same call in both shells. In Electron a
 * dropped file that has a disk path is named by it (`window.workbenchFiles.pathRef`: the preload
 * asks webUtils, the page never sees the path); every other file's bytes go over the contract
 * (`userFiles.upload`, upload-bytes.ts), as all of them do in browser mode. One file at a time, in
 * order, with progress and Cancel. `chooseFiles` is the "Choose files…" button: the native dialog
 * where there is one, else an <input type=file> whose files are uploaded the same way.
 */
import { WorkbenchFailure } from '@shared/contract/errors';
import type { WorkbenchApi } from '@shared/contract/api';
import type { FileRef } from '@shared/contract/user-files';
import { toWorkbenchError } from '../lib/errors';
import { uploadBytes, uploadCancelled, type UploadApi } from './upload-bytes';
import { pageUploadLane } from './upload-lane';

export type { UploadApi } from './upload-bytes';

/** Where one file's upload is: bytes sent of `total`, for file `index` of the batch. */
export interface UploadProgress {
  index: number;
  name: string;
  loaded: number;
  total: number;
}

export interface FileRefsOptions {
  /** The contract (the page's `useWorkbench()`): uploads go over it. */
  api: UploadApi;
  onProgress?: (progress: UploadProgress) => void;
  /** Aborting stops the running upload (main removes its partial copy) and rejects `cancelled`. */
  signal?: AbortSignal;
}

/** Electron: a reference by the File's disk path, or null when it has none (made in the page) or in browser mode. */
async function byPath(file: File, signal?: AbortSignal): Promise<FileRef | null> {
  if (!window.workbenchFiles) return null;
  if (signal?.aborted) throw uploadCancelled(file.name);
  let reply: Awaited<ReturnType<NonNullable<typeof window.workbenchFiles>['pathRef']>>;
  try {
    reply = await window.workbenchFiles.pathRef(file);
  } catch (err) {
    // Only a broken preload throws: keep what its message says.
    throw new WorkbenchFailure(toWorkbenchError(err));
  }
  if (!reply.ok) throw new WorkbenchFailure(reply.error);
  return reply.value;
}

/** Turns `files` into references, in order; rejects with a WorkbenchFailure on the first failure. */
export async function fileRefsFrom(files: readonly File[], options: FileRefsOptions): Promise<FileRef[]> {
  const refs: FileRef[] = [];
  for (const [index, file] of files.entries()) {
    const report = (loaded: number) => options.onProgress?.({ index, name: file.name, loaded, total: file.size });
    report(0);
    // Browser mode posts a File's slices unread over the bytes lane (upload-lane.ts); Electron's IPC needs the bytes.
    const ref = (await byPath(file, options.signal)) ?? (await uploadBytes(options.api, file, report, options.signal, { lane: stagesBytes() ? pageUploadLane() : undefined }));
    report(file.size);
    refs.push(ref);
  }
  return refs;
}

/**
 * True when handing the page's files to main moves their bytes (browser mode), so an upload has
 * two legs; Electron names a dropped file by its path instead.
 */
export function stagesBytes(): boolean {
  return !window.workbenchFiles;
}

/** The Files queue's stager over `api`: one file to a reference, reporting the bytes handed over; `signal` cancels. */
export function stageFileWith(api: UploadApi): (file: File, onProgress: (loaded: number) => void, signal?: AbortSignal) => Promise<FileRef> {
  return async (file, onProgress, signal) => {
    const [ref] = await fileRefsFrom([file], { api, onProgress: (p) => onProgress(p.loaded), signal });
    return ref!;
  };
}

/** Opens the browser's own file chooser; resolves with the chosen files ([] when cancelled). */
export function openFileInput(options: { multiple?: boolean; accept?: string } = {}): Promise<File[]> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = options.multiple ?? false;
    if (options.accept) input.accept = options.accept;
    input.addEventListener('change', () => resolve(Array.from(input.files ?? [])), { once: true });
    input.addEventListener('cancel', () => resolve([]), { once: true });
    input.click();
  });
}

/**
 * Lets the user choose files and returns their references: `userFiles.pick` (Electron's dialog);
 * where main answers `unsupported` (browser mode), the page's own chooser and an upload.
 */
export async function chooseFiles(
  api: { userFiles: Pick<WorkbenchApi['userFiles'], 'pick' | 'release' | 'upload'> },
  pick: { multiple?: boolean; title?: string; accept?: string } = {},
  options: Omit<FileRefsOptions, 'api'> = {},
): Promise<FileRef[]> {
  try {
    return await api.userFiles.pick({ multiple: pick.multiple, title: pick.title });
  } catch (err) {
    if (toWorkbenchError(err).code !== 'unsupported') throw err;
  }
  const files = await openFileInput({ multiple: pick.multiple, accept: pick.accept });
  return files.length === 0 ? [] : fileRefsFrom(files, { ...options, api });
}
