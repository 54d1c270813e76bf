/**
 * The preload: exposes `window.workbench` (the typed contract API) and `window.workbenchFiles`
 * (files from the page as references). No raw ipcRenderer, no generic invoke: the page can only
 * ask for the contract's operations and hand over File objects.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createWorkbenchApi } from '../shared/contract/bridge';
import { createFilesApi } from './files-bridge';
import { createIpcTransport } from './ipc-transport';

contextBridge.exposeInMainWorld('workbench', createWorkbenchApi(createIpcTransport(ipcRenderer)));
contextBridge.exposeInMainWorld(
  'workbenchFiles',
  createFilesApi(ipcRenderer, (file) => webUtils.getPathForFile(file as unknown as File)),
);
