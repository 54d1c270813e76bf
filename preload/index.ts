/**
 * The preload: exposes `window.workbench` (the contract's reply API: every failure resolves as
 * data, because contextBridge copies a rejected Error as its message alone) and
 * `window.workbenchFiles` (a dropped file named by its path, never shown to the page) and `window.workbenchMedia` (the
 * frame channel to the media process: frame bytes only, the port stays here). No raw ipcRenderer, no generic
 * invoke: the page can only ask for the contract's operations and hand over File objects.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createReplyApi } from '../shared/contract/bridge';
import { createFilesApi } from './files-bridge';
import { createMediaBridge, type MediaIpcLike } from './media-bridge';
import { createIpcTransport } from './ipc-transport';

const workbench = createReplyApi(createIpcTransport(ipcRenderer));
contextBridge.exposeInMainWorld('workbench', workbench);
contextBridge.exposeInMainWorld(
  'workbenchFiles',
  createFilesApi(ipcRenderer, (file) => webUtils.getPathForFile(file as unknown as File)),
);
contextBridge.exposeInMainWorld('workbenchMedia', createMediaBridge(ipcRenderer as unknown as MediaIpcLike));
