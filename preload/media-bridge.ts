/**
 * `window.workbenchMedia`: the page's frame channel to the media process in Electron. The port
 * main hands over stays here in the preload; the page only sends and receives frame bytes
 * (Uint8Arrays are copied across the context bridge: a 20 ms audio frame is 640 bytes). Electron
 * extends MessagePort with a `close` event when the other end goes (the media process restarted).
 */
import { WorkbenchFailure } from '../shared/contract/errors';
import { IPC_MEDIA_PORT, IPC_MEDIA_PORT_REQUEST, type MediaPortConnection, type MediaPortReply, type WorkbenchMediaApi } from '../shared/contract/media-channel';

/** The part of ipcRenderer used here (its events carry the transferred ports). */
export interface MediaIpcLike {
  send(channel: string, ...args: unknown[]): void;
  on(channel: string, listener: (event: { ports: readonly PortLike[] }, reply: unknown) => void): unknown;
}

/** The DOM MessagePort as used here (with Electron's `close` event). */
export interface PortLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'close', listener: () => void): void;
  start(): void;
  close(): void;
}

export function createMediaBridge(ipc: MediaIpcLike): WorkbenchMediaApi {
  const waiting = new Map<number, { resolve(port: PortLike): void; reject(err: Error): void }>();
  let nextRequest = 1;
  ipc.on(IPC_MEDIA_PORT, (event, raw) => {
    const reply = raw as MediaPortReply | null;
    const entry = reply ? waiting.get(reply.requestId) : undefined;
    if (!reply || !entry) return;
    waiting.delete(reply.requestId);
    const port = event.ports[0];
    if (reply.error || !port) entry.reject(new WorkbenchFailure(reply.error ?? { code: 'internal', message: 'The media channel came without its port.' }));
    else entry.resolve(port);
  });

  return Object.freeze({
    async open(onMessage: (bytes: Uint8Array) => void, onClose: () => void): Promise<MediaPortConnection> {
      const requestId = nextRequest++;
      const port = await new Promise<PortLike>((resolve, reject) => {
        waiting.set(requestId, { resolve, reject });
        ipc.send(IPC_MEDIA_PORT_REQUEST, { requestId });
      });
      let open = true;
      port.addEventListener('message', (event) => {
        const data = event.data;
        if (data instanceof Uint8Array) onMessage(data);
        else if (data instanceof ArrayBuffer) onMessage(new Uint8Array(data));
      });
      port.addEventListener('close', () => {
        if (!open) return;
        open = false;
        onClose();
      });
      port.start();
      return Object.freeze({
        send: (bytes: Uint8Array) => {
          if (open && bytes instanceof Uint8Array) port.postMessage(bytes);
        },
        close: () => {
          if (!open) return;
          open = false;
          port.close();
        },
      });
    },
  });
}
