/**
 * The private IPC channels behind `window.workbenchFiles` (see shared/contract/user-files.ts
 * IPC_FILES): a dropped file's path (resolved by the preload with webUtils, never typed by the
 * page) becomes a reference; bytes of a File made in the page are staged in chunks. Only our
 * window's main frame is served; a reload or close aborts that window's unfinished uploads.
 */
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { CallReply } from '../../shared/contract/protocol';
import { IPC_FILES } from '../../shared/contract/user-files';
import { ChunkedStaging, type ChunkedUploadStart } from '../host/chunked-staging';
import { DEFAULT_MAX_UPLOAD_BYTES } from '../host/staging-route';
import type { UserFiles } from '../services/user-files';
import { isTrustedSender } from './ipc';

export interface FileIpcOptions {
  userFiles: Pick<UserFiles, 'register' | 'stage'>;
  log: (line: string) => void;
  maxBytes?: number;
}

export interface FileIpc {
  /** Serves `window`; its uploads are aborted when it reloads or closes. */
  addWindow(window: BrowserWindow): void;
  dispose(): void;
}

export function setupFileIpc(options: FileIpcOptions): FileIpc {
  const staging = new ChunkedStaging(options.userFiles, options.maxBytes ?? DEFAULT_MAX_UPLOAD_BYTES);
  const windows = new Set<Electron.WebContents>();

  /** Runs `work` for a trusted sender, answering a CallReply; `owner` names the window. */
  const serve = (channel: string, work: (owner: string, ...args: unknown[]) => unknown) => {
    ipcMain.removeHandler(channel);
    ipcMain.handle(channel, async (event: IpcMainInvokeEvent, ...args: unknown[]): Promise<CallReply> => {
      const contents = [...windows].find((c) => c === event.sender);
      if (!contents || !isTrustedSender(event, contents)) {
        options.log(`[files] refused ${channel} from ${event.senderFrame?.url ?? 'a destroyed frame'}`);
        throw new Error(`${channel} is only available to the workbench window.`);
      }
      try {
        return { ok: true, value: (await work(`window-${contents.id}`, ...args)) ?? null };
      } catch (err) {
        if (err instanceof WorkbenchFailure) return { ok: false, error: err.error };
        options.log(`[files] ${channel} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        return { ok: false, error: { code: 'internal', message: 'The workbench could not take this file. The details are in its log.' } };
      }
    });
  };

  const str = (value: unknown): string => {
    if (typeof value !== 'string') throw new WorkbenchFailure({ code: 'invalid_input', message: 'Expected a string.' });
    return value;
  };

  serve(IPC_FILES.fromPath, (_owner, path) => options.userFiles.register(str(path)));
  serve(IPC_FILES.stageBegin, (owner, start) => staging.begin(owner, (start ?? {}) as ChunkedUploadStart));
  serve(IPC_FILES.stageChunk, (owner, id, bytes) => staging.chunk(owner, str(id), bytes as Uint8Array));
  serve(IPC_FILES.stageEnd, (owner, id) => staging.end(owner, str(id)));
  serve(IPC_FILES.stageAbort, (owner, id) => ({ aborted: staging.abort(owner, str(id)) }));

  return {
    addWindow(window) {
      const contents = window.webContents;
      const owner = `window-${contents.id}`;
      windows.add(contents);
      contents.on('did-navigate', () => staging.abortOwner(owner));
      contents.on('destroyed', () => {
        staging.abortOwner(owner);
        windows.delete(contents);
      });
    },
    dispose() {
      for (const channel of Object.values(IPC_FILES)) ipcMain.removeHandler(channel);
      staging.dispose();
      windows.clear();
    },
  };
}
