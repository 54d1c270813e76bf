/**
 * The one private IPC channel behind `window.workbenchFiles` (see shared/contract/user-files.ts
 * IPC_FILES): a dropped file's path (resolved by the preload with webUtils, never typed by the
 * page) becomes a reference. Bytes of a File made in the page take the contract instead
 * (`userFiles.upload`). Only our window's main frame is served; errors come back as values.
 */
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { CallReply } from '../../shared/contract/protocol';
import { IPC_FILES } from '../../shared/contract/user-files';
import type { UserFiles } from '../services/user-files';
import { isTrustedSender } from './ipc';

export interface FileIpcOptions {
  userFiles: Pick<UserFiles, 'register'>;
  log: (line: string) => void;
  /** Named in the message of an unexpected failure, so the user knows where to look. */
  logPath?: string;
}

export interface FileIpc {
  /** Serves `window`. */
  addWindow(window: BrowserWindow): void;
  dispose(): void;
}

export function setupFileIpc(options: FileIpcOptions): FileIpc {
  const windows = new Set<Electron.WebContents>();
  const where = options.logPath ? ` (${options.logPath})` : '';

  /** Runs `work` for a trusted sender, answering a CallReply; `owner` names the window. */
  const serve = (channel: string, work: (...args: unknown[]) => unknown) => {
    ipcMain.removeHandler(channel);
    ipcMain.handle(channel, async (event: IpcMainInvokeEvent, ...args: unknown[]): Promise<CallReply> => {
      const contents = [...windows].find((c) => c === event.sender);
      if (!contents || !isTrustedSender(event, contents)) {
        options.log(`[files] refused ${channel} from ${event.senderFrame?.url ?? 'a destroyed frame'}`);
        throw new Error(`${channel} is only available to the workbench window.`);
      }
      try {
        return { ok: true, value: (await work(...args)) ?? null };
      } catch (err) {
        if (err instanceof WorkbenchFailure) return { ok: false, error: err.error };
        options.log(`[files] ${channel} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        return { ok: false, error: { code: 'internal', message: `The workbench could not take this file. The details are in its log${where}.` } };
      }
    });
  };

  const str = (value: unknown): string => {
    if (typeof value !== 'string') throw new WorkbenchFailure({ code: 'invalid_input', message: 'Expected a string.' });
    return value;
  };

  serve(IPC_FILES.fromPath, (path) => options.userFiles.register(str(path)));

  return {
    addWindow(window) {
      const contents = window.webContents;
      windows.add(contents);
      contents.on('destroyed', () => windows.delete(contents));
    },
    dispose() {
      for (const channel of Object.values(IPC_FILES)) ipcMain.removeHandler(channel);
      windows.clear();
    },
  };
}
