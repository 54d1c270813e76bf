// The API the preload exposes, as the renderer sees it. Types only.
import type { WorkbenchApi } from '../shared/contract/api';

declare global {
  interface Window {
    workbench?: WorkbenchApi;
  }
}

export {};
