/**
 * `window.workbenchFiles`: turns a File the page holds into a FileRef without the page ever
 * naming a path. A dropped file's path comes from `webUtils.getPathForFile` here in the preload
 * (the page cannot forge it) and goes over the one private channel; a File made in the page has
 * no path ('') and its bytes go over the contract (`userFiles.upload`, a session: one chunk per
 * message, each send waiting for room), so a large file never sits whole in a message. Failures
 * come back as values (a Reply), code and all.
 */
import { WorkbenchFailure } from '../shared/contract/errors';
import type { CallReply, Reply } from '../shared/contract/protocol';
import type { WorkbenchReplyApi } from '../shared/contract/api';
import { IPC_FILES, IPC_STAGE_CHUNK_BYTES, type FileLike, type FileRef, type WorkbenchFilesApi } from '../shared/contract/user-files';
import type { IpcRendererLike } from './ipc-transport';

async function invoke<T>(ipc: Pick<IpcRendererLike, 'invoke'>, channel: string, ...args: unknown[]): Promise<T> {
  const reply = (await ipc.invoke(channel, ...args)) as CallReply | undefined;
  if (!reply || typeof reply !== 'object' || typeof reply.ok !== 'boolean') {
    throw new WorkbenchFailure({ code: 'protocol', message: 'The workbench process sent a malformed reply.' });
  }
  if (!reply.ok) throw new WorkbenchFailure(reply.error);
  return reply.value as T;
}

/** The part of the preload's reply API used here (window.workbench's `userFiles.upload`). */
export interface UploadReplyApi {
  userFiles: Pick<WorkbenchReplyApi['userFiles'], 'upload'>;
}

/**
 * Builds the API over `ipc` (the dropped file's path) and `api` (the contract, for bytes);
 * `pathForFile` is webUtils.getPathForFile ('' when there is no path).
 */
export function createFilesApi(ipc: Pick<IpcRendererLike, 'invoke'>, api: UploadReplyApi, pathForFile: (file: FileLike) => string): WorkbenchFilesApi {
  async function stream(file: FileLike): Promise<FileRef> {
    const upload = api.userFiles.upload({ name: file.name, type: file.type, size: file.size }, () => {});
    try {
      for (let offset = 0; offset < file.size; offset += IPC_STAGE_CHUNK_BYTES) {
        const data = new Uint8Array(await file.slice(offset, offset + IPC_STAGE_CHUNK_BYTES).arrayBuffer());
        // Each send settles once main has room for it: the contract's back-pressure.
        const sent = await upload.send({ data });
        if (!sent.ok) break;
      }
    } catch (err) {
      await upload.cancel();
      await upload.result;
      throw err;
    }
    await upload.close();
    const result = await upload.result;
    if (!result.ok) throw new WorkbenchFailure(result.error);
    return result.value;
  }

  return Object.freeze({
    async fromFile(file: FileLike): Promise<Reply<FileRef>> {
      try {
        const path = pathForFile(file);
        return { ok: true, value: await (path ? invoke<FileRef>(ipc, IPC_FILES.fromPath, path) : stream(file)) };
      } catch (err) {
        // Errors cross the context bridge as values: a thrown one would arrive as its message alone.
        if (err instanceof WorkbenchFailure) return { ok: false, error: err.error };
        const message = err instanceof Error ? err.message : String(err);
        return { ok: false, error: { code: 'internal', message: `"${file.name}" could not be read: ${message}` } };
      }
    },
  });
}
