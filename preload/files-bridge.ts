/**
 * `window.workbenchFiles`: names a dropped File by its disk path without the page ever seeing
 * it. The path comes from `webUtils.getPathForFile` here in the preload (the page cannot forge it)
 * and goes over the one private channel, which carries paths only; a File made in the page has no
 * path ('') and answers null: the page uploads its bytes over the contract (`userFiles.upload`),
 * as browser mode does. Failures come back as values (a Reply), code and all.
 */
import { IPC_FILES, type FileLike, type FileRef, type WorkbenchFilesApi } from '../shared/contract/user-files';
import type { CallReply, Reply } from '../shared/contract/protocol';
import type { IpcRendererLike } from './ipc-transport';

/**
 * Builds the API over `ipc` (the dropped file's path); `pathForFile` is webUtils.getPathForFile
 * ('' when there is no path).
 */
export function createFilesApi(ipc: Pick<IpcRendererLike, 'invoke'>, pathForFile: (file: FileLike) => string): WorkbenchFilesApi {
  return Object.freeze({
    async pathRef(file: FileLike): Promise<Reply<FileRef | null>> {
      try {
        const path = pathForFile(file);
        if (!path) return { ok: true, value: null };
        const reply = (await ipc.invoke(IPC_FILES.fromPath, path)) as CallReply | undefined;
        if (!reply || typeof reply !== 'object' || typeof reply.ok !== 'boolean') {
          return { ok: false, error: { code: 'protocol', message: 'The workbench process sent a malformed reply.' } };
        }
        return reply.ok ? { ok: true, value: reply.value as FileRef } : { ok: false, error: reply.error };
      } catch (err) {
        // Errors cross the context bridge as values: a thrown one would arrive as its message alone.
        const message = err instanceof Error ? err.message : String(err);
        return { ok: false, error: { code: 'internal', message: `"${file.name}" could not be handed to the workbench: ${message}` } };
      }
    },
  });
}
