/**
 * Files from the page -> FileRefs main can use, the same call in both shells. Electron hands each
 * File to the preload (`window.workbenchFiles.fromFile`: its disk path, or its bytes when it has
 * none); browser mode POSTs the bytes to main's `/stage` route with the page token, through
 * XMLHttpRequest because fetch cannot report upload progress. One file at a time, in order.
 * `chooseFiles` is the "Choose files…" button: the native dialog where there is one, else an
 * <input type=file> whose files are uploaded the same way.
 */
import { WorkbenchFailure, isWorkbenchError, type WorkbenchError } from '@shared/contract/errors';
import type { WorkbenchApi } from '@shared/contract/api';
import { STAGE_NAME_HEADER, STAGE_ROUTE, STAGE_UPLOAD_ID_HEADER, type FileRef } from '@shared/contract/user-files';
import { currentAccessToken } from './access-token';
import { toWorkbenchError } from '../lib/errors';

/** Where one file's upload is: bytes sent of `total`, for file `index` of the batch. */
export interface UploadProgress {
  index: number;
  name: string;
  loaded: number;
  total: number;
}

export interface FileRefsOptions {
  onProgress?: (progress: UploadProgress) => void;
  /** Aborting stops the running upload (main removes its partial copy) and rejects `cancelled`. */
  signal?: AbortSignal;
}

function cancelled(name: string): WorkbenchFailure {
  return new WorkbenchFailure({ code: 'cancelled', message: `The upload of "${name}" was cancelled.` });
}

function errorFromAnswer(xhr: XMLHttpRequest, name: string): WorkbenchError {
  try {
    const parsed = JSON.parse(xhr.responseText) as { error?: unknown };
    if (isWorkbenchError(parsed.error)) return parsed.error;
  } catch {
    // Not our JSON: fall through to the status.
  }
  if (xhr.status === 401) return { code: 'config', message: 'The page’s access token was refused; open the address the workbench printed.', status: 401 };
  return { code: 'internal', message: `The upload of "${name}" failed (HTTP ${xhr.status}).`, status: xhr.status };
}

/**
 * Tells main to drop whatever upload `uploadId` staged. Aborting the POST alone leaves a race: main
 * may have finished staging just as the page gave up, and its answer (the reference) is never read.
 * The DELETE stops a running POST too and releases a finished one, so Cancel leaves nothing behind.
 */
function dropStaged(uploadId: string, token: string): void {
  void fetch(`${STAGE_ROUTE}/${uploadId}`, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` }, keepalive: true }).catch(() => {
    // Main is gone: its staging folder is swept at its next start.
  });
}

/** POSTs one file's bytes to /stage; resolves with its FileRef. */
function stageOverHttp(file: File, token: string, report: (loaded: number, total: number) => void, signal?: AbortSignal): Promise<FileRef> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled(file.name));
    const xhr = new XMLHttpRequest();
    const uploadId = crypto.randomUUID().replaceAll('-', '');
    const onAbort = () => {
      xhr.abort();
      dropStaged(uploadId, token);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = (done: () => void) => {
      signal?.removeEventListener('abort', onAbort);
      done();
    };
    xhr.open('POST', STAGE_ROUTE);
    xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader(STAGE_NAME_HEADER, encodeURIComponent(file.name));
    xhr.setRequestHeader(STAGE_UPLOAD_ID_HEADER, uploadId);
    if (file.type) xhr.setRequestHeader('Content-Type', file.type);
    xhr.upload.onprogress = (event) => report(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onload = () =>
      settle(() => {
        if (xhr.status !== 200) return reject(new WorkbenchFailure(errorFromAnswer(xhr, file.name)));
        try {
          resolve(JSON.parse(xhr.responseText) as FileRef);
        } catch {
          reject(new WorkbenchFailure({ code: 'protocol', message: 'The workbench answered the upload with something unreadable.' }));
        }
      });
    xhr.onerror = () =>
      settle(() =>
        reject(new WorkbenchFailure({ code: 'network', message: `The upload of "${file.name}" was interrupted (the connection to the workbench dropped). Try again.` })),
      );
    xhr.onabort = () => settle(() => reject(cancelled(file.name)));
    xhr.send(file);
  });
}

async function viaPreload(file: File, signal?: AbortSignal): Promise<FileRef> {
  if (signal?.aborted) throw cancelled(file.name);
  let reply: Awaited<ReturnType<NonNullable<typeof window.workbenchFiles>['fromFile']>>;
  try {
    reply = await window.workbenchFiles!.fromFile(file);
  } catch (err) {
    // Only a broken preload throws: keep what its message says.
    throw new WorkbenchFailure(toWorkbenchError(err));
  }
  if (!reply.ok) throw new WorkbenchFailure(reply.error);
  return reply.value;
}

/** Turns `files` into references, in order; rejects with a WorkbenchFailure on the first failure. */
export async function fileRefsFrom(files: readonly File[], options: FileRefsOptions = {}): Promise<FileRef[]> {
  const refs: FileRef[] = [];
  const token = window.workbenchFiles ? null : currentAccessToken();
  if (!window.workbenchFiles && !token) {
    throw new WorkbenchFailure({ code: 'config', message: 'This page has no access token; open the address the workbench printed.' });
  }
  for (const [index, file] of files.entries()) {
    const report = (loaded: number, total: number) => options.onProgress?.({ index, name: file.name, loaded, total });
    report(0, file.size);
    const ref = token ? await stageOverHttp(file, token, report, options.signal) : await viaPreload(file, options.signal);
    report(file.size, file.size);
    refs.push(ref);
  }
  return refs;
}

/**
 * True when handing a file to main moves its bytes over the network (browser mode's /stage), so
 * an upload has two legs; Electron's preload passes a path (or a local stream) instead.
 */
export function stagesOverHttp(): boolean {
  return !window.workbenchFiles;
}

/** One file to a reference (see fileRefsFrom), reporting the bytes handed over; `signal` cancels. */
export async function stageFile(file: File, onProgress: (loaded: number) => void, signal?: AbortSignal): Promise<FileRef> {
  const [ref] = await fileRefsFrom([file], { onProgress: (p) => onProgress(p.loaded), signal });
  return ref!;
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
  api: { userFiles: Pick<WorkbenchApi['userFiles'], 'pick' | 'release'> },
  pick: { multiple?: boolean; title?: string; accept?: string } = {},
  options: FileRefsOptions = {},
): Promise<FileRef[]> {
  try {
    return await api.userFiles.pick({ multiple: pick.multiple, title: pick.title });
  } catch (err) {
    if (toWorkbenchError(err).code !== 'unsupported') throw err;
  }
  const files = await openFileInput({ multiple: pick.multiple, accept: pick.accept });
  return files.length === 0 ? [] : fileRefsFrom(files, options);
}
