/**
 * Electron's page <-> media process frame channel: on the preload's request (from our window's
 * main frame only, as every IPC gate), main makes a MessageChannelMain, transfers one port to the
 * media process (MediaPlane.postPort) and the other to the window (`webContents.postMessage`).
 * Frames then flow between the page and the media process without touching main's event loop.
 * A refusal (media process not running) goes back as an error value.
 */
import { ipcMain, MessageChannelMain, type BrowserWindow, type IpcMainEvent, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { IPC_MEDIA_PORT, IPC_MEDIA_PORT_REQUEST, type MediaPortReply } from '../../shared/contract/media-channel';
import type { MediaPlane } from '../media/media-plane';
import { isTrustedSender } from './ipc';

export interface MediaPorts {
  addWindow(window: BrowserWindow): void;
  dispose(): void;
}

export function setupMediaPorts(options: { plane: Pick<MediaPlane, 'postPort' | 'start'>; log: (line: string) => void }): MediaPorts {
  const windows = new Set<WebContents>();
  let next = 1;

  const onRequest = (event: IpcMainEvent, request: unknown) => {
    const contents = [...windows].find((c) => c === event.sender);
    if (!contents || !isTrustedSender(event as unknown as IpcMainInvokeEvent, contents)) {
      options.log(`[media] refused a media port to ${event.senderFrame?.url ?? 'a destroyed frame'}`);
      return;
    }
    const requestId = typeof (request as { requestId?: unknown } | null)?.requestId === 'number' ? (request as { requestId: number }).requestId : 0;
    void options.plane.start().then((started) => {
      if (contents.isDestroyed()) return;
      if (!started.ok) return contents.postMessage(IPC_MEDIA_PORT, { requestId, error: started.error } satisfies MediaPortReply);
      const { port1, port2 } = new MessageChannelMain();
      if (!options.plane.postPort(`window-${contents.id}-${next++}`, port1)) {
        port1.close();
        port2.close();
        const error = { code: 'internal' as const, message: 'The media process is restarting; try again in a moment.' };
        return contents.postMessage(IPC_MEDIA_PORT, { requestId, error } satisfies MediaPortReply);
      }
      contents.postMessage(IPC_MEDIA_PORT, { requestId } satisfies MediaPortReply, [port2]);
    });
  };
  ipcMain.removeAllListeners(IPC_MEDIA_PORT_REQUEST);
  ipcMain.on(IPC_MEDIA_PORT_REQUEST, onRequest);

  return {
    addWindow(window) {
      const contents = window.webContents;
      windows.add(contents);
      contents.on('destroyed', () => windows.delete(contents));
    },
    dispose() {
      ipcMain.off(IPC_MEDIA_PORT_REQUEST, onRequest);
      windows.clear();
    },
  };
}
