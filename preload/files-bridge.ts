/**
 * `window.workbenchFiles`: turns a File the page holds into a FileRef without the page ever
 * naming a path. A dropped file's path comes from `webUtils.getPathForFile` here in the preload
 * (the page cannot forge it); a File made in the page has no path ('') and its bytes are sent in
 * acknowledged chunks instead, so a large file never sits whole in a message. Failures come back
 * as values (a Reply), code and all.
 */
import { WorkbenchFailure } from '../shared/contract/errors';
import type { CallReply, Reply } from '../shared/contract/protocol';
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

/** Builds the API over `ipc`; `pathForFile` is webUtils.getPathForFile ('' when there is no path). */
export function createFilesApi(ipc: Pick<IpcRendererLike, 'invoke'>, pathForFile: (file: FileLike) => string): WorkbenchFilesApi {
  async function stream(file: FileLike): Promise<FileRef> {
    const id = await invoke<string>(ipc, IPC_FILES.stageBegin, { name: file.name, type: file.type, size: file.size });
    try {
      for (let offset = 0; offset < file.size; offset += IPC_STAGE_CHUNK_BYTES) {
        const bytes = new Uint8Array(await file.slice(offset, offset + IPC_STAGE_CHUNK_BYTES).arrayBuffer());
        // Awaiting each acknowledgement is the back-pressure: main takes a chunk once it has room.
        await invoke(ipc, IPC_FILES.stageChunk, id, bytes);
      }
      return await invoke<FileRef>(ipc, IPC_FILES.stageEnd, id);
    } catch (err) {
      await ipc.invoke(IPC_FILES.stageAbort, id).catch(() => {});
      throw err;
    }
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
