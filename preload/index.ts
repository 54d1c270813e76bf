/**
 * The preload: exposes `window.workbench` (the typed contract API) and nothing else. No raw
 * ipcRenderer, no generic invoke: the page can only ask for the contract's operations.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createWorkbenchApi } from '../shared/contract/bridge';
import { createIpcTransport } from './ipc-transport';

contextBridge.exposeInMainWorld('workbench', createWorkbenchApi(createIpcTransport(ipcRenderer)));
