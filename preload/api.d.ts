// The APIs the preload exposes, as the renderer sees them. Types only.
import type { WorkbenchApi } from '../shared/contract/api';
import type { WorkbenchFilesApi } from '../shared/contract/user-files';

declare global {
  interface Window {
    workbench?: WorkbenchApi;
    /** Electron only: files from the page as references (see preload/files-bridge.ts). */
    workbenchFiles?: WorkbenchFilesApi;
  }
}

export {};
