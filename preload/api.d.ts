// The APIs the preload exposes, as the renderer sees them. Types only.
import type { WorkbenchReplyApi } from '../shared/contract/api';
import type { WorkbenchMediaApi } from '../shared/contract/media-channel';
import type { WorkbenchFilesApi } from '../shared/contract/user-files';

declare global {
  interface Window {
    /**
     * The contract's operations, every promise resolving to a Reply (errors as data). Page code
     * uses renderer/src/bridge's `workbench`, which unwraps it (shared/contract/page-api.ts).
     */
    workbench?: WorkbenchReplyApi;
    /** Electron only: files from the page as references (see preload/files-bridge.ts). */
    workbenchFiles?: WorkbenchFilesApi;
    /** Electron only: the real-time frame channel to the media process (see preload/media-bridge.ts). */
    workbenchMedia?: WorkbenchMediaApi;
  }
}

export {};
