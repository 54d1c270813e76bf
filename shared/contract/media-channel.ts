/**
 * Electron's side door for the real-time frame channel (see main/media): the preload asks main
 * for a MessagePort to the media process and exposes it to the page as `window.workbenchMedia`
 * (frames as Uint8Arrays; no ipcRenderer, no port object in the page). Browser mode has no such
 * API: the page opens the media process's WebSocket from `media.channel`'s answer.
 */
import type { WorkbenchError } from './errors';

/** Preload -> main: "a port, please" ({ requestId }). */
export const IPC_MEDIA_PORT_REQUEST = 'workbench:media-port-request';
/** Main -> preload: { requestId } with the port transferred, or { requestId, error } without. */
export const IPC_MEDIA_PORT = 'workbench:media-port';

export interface MediaPortReply {
  requestId: number;
  error?: WorkbenchError;
}

/** One open channel: send frames (encoded, shared/media-frames/frame.ts); close it. */
export interface MediaPortConnection {
  send(bytes: Uint8Array): void;
  close(): void;
}

export interface WorkbenchMediaApi {
  /**
   * Opens a channel to the media process: `onMessage` gets every frame, `onClose` the end (the
   * media process restarted or went away: open again). Rejects with the reason (a message).
   */
  open(onMessage: (bytes: Uint8Array) => void, onClose: () => void): Promise<MediaPortConnection>;
}
