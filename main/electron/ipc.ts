/**
 * The one IPC gate: one `ipcMain.handle` per call and stream operation of the contract (any
 * previous handler removed first), each accepting only our window's main frame on our app://
 * origin. The window is one host session: stream chunks and ends go back with
 * `webContents.send` (in order, on IPC_STREAM_CHUNK / IPC_STREAM_END), events on their own
 * channel names. Reloading or closing the window cancels its streams.
 */
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent, type WebContents } from 'electron';
import type { Contract } from '../../shared/contract/define';
import { IPC_STREAM_CHUNK, IPC_STREAM_END, type CallReply } from '../../shared/contract/protocol';
import type { Host, HostSession } from '../host/host';
import { operationChannels } from '../host/registry';
import { isAppUrl } from './app-origin';

export interface IpcGateOptions {
  host: Host;
  contract: Contract;
  window: BrowserWindow;
  log: (line: string) => void;
}

/** True only for a message from `contents`' main frame showing our own page. */
export function isTrustedSender(event: IpcMainInvokeEvent, contents: WebContents): boolean {
  if (event.sender !== contents) return false;
  const frame = event.senderFrame;
  const main = contents.mainFrame;
  if (!frame || !main) return false;
  const sameFrame = frame === main || (frame.processId === main.processId && frame.routingId === main.routingId);
  return sameFrame && isAppUrl(frame.url);
}

const STREAM_STARTED: CallReply = { ok: true, value: null };

/** Installs the handlers; returns the disposer that removes them and cancels the window's streams. */
export function setupIpc(options: IpcGateOptions): () => void {
  const { host, window, log } = options;
  const contents = window.webContents;
  const send = (channel: string, ...args: unknown[]) => {
    if (!contents.isDestroyed()) contents.send(channel, ...args);
  };
  const session: HostSession = {
    id: `window-${contents.id}`,
    sendChunk: (streamId, chunk) => send(IPC_STREAM_CHUNK, streamId, chunk),
    sendEvent: (channel, payload) => send(channel, payload),
  };
  let detach = host.attach(session);

  const refuse = (event: IpcMainInvokeEvent, channel: string) => {
    log(`[ipc] refused ${channel} from ${event.senderFrame?.url ?? 'a destroyed frame'}`);
    return new Error(`${channel} is only available to the workbench window.`);
  };

  const channels = operationChannels(options.contract);
  for (const { channel, kind } of channels) {
    ipcMain.removeHandler(channel);
    if (kind === 'call') {
      ipcMain.handle(channel, (event, input: unknown) => {
        if (!isTrustedSender(event, contents)) throw refuse(event, channel);
        return host.call(session, channel, input);
      });
    } else {
      ipcMain.handle(channel, (event, input: unknown, streamId: unknown) => {
        if (!isTrustedSender(event, contents)) throw refuse(event, channel);
        if (typeof streamId !== 'string') {
          return { ok: false, error: { code: 'invalid_input', message: `${channel} needs a stream id.` } } satisfies CallReply;
        }
        void host.stream(session, channel, input, streamId).then((reply) => send(IPC_STREAM_END, streamId, reply));
        return STREAM_STARTED;
      });
    }
  }

  // A reload is a new page: the old page's streams have no one left to read them.
  const onNavigate = () => {
    detach();
    detach = host.attach(session);
  };
  const onGone = () => detach();
  contents.on('did-navigate', onNavigate);
  contents.on('render-process-gone', onGone);
  contents.on('destroyed', onGone);

  return () => {
    for (const { channel } of channels) ipcMain.removeHandler(channel);
    contents.off('did-navigate', onNavigate);
    contents.off('render-process-gone', onGone);
    contents.off('destroyed', onGone);
    detach();
  };
}
