/**
 * The one IPC gate: one `ipcMain.handle` per call, stream and session operation of the contract
 * (any previous handler removed first), each accepting only our window's main frame on our app://
 * origin. Each window is one host session: stream and session chunks and ends go back with
 * `webContents.send` (in order, on IPC_STREAM_CHUNK / IPC_STREAM_END), events on their own
 * channel names. A session's inbound messages come as `ops.send` calls. Uint8Arrays cross as they
 * are (structured clone). The page acknowledges chunks (IPC_STREAM_ACK): past a window of
 * unacknowledged ones a session's `emit` waits (stream-credits.ts). Reloading or closing the
 * window aborts its calls, streams and sessions.
 */
import { ipcMain, type BrowserWindow, type IpcMainEvent, type IpcMainInvokeEvent, type WebContents } from 'electron';
import type { Contract } from '../../shared/contract/define';
import { IPC_STREAM_ACK, IPC_STREAM_CHUNK, IPC_STREAM_END, type CallReply } from '../../shared/contract/protocol';
import type { HostPort, HostSession } from '../host/host';
import { operationChannels } from '../host/registry';
import { isAppUrl } from './app-origin';
import { chunkCost, StreamCredits } from './stream-credits';

export interface IpcGateOptions {
  host: HostPort;
  contract: Contract;
  log: (line: string) => void;
}

export interface IpcGate {
  /** Serves `window` (one host session); returns a disposer. Closing or reloading it aborts what it runs. */
  addWindow(window: BrowserWindow): () => void;
  /** Removes every handler and detaches every window. */
  dispose(): void;
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
const UNSENDABLE: CallReply = {
  ok: false,
  error: { code: 'internal', message: 'The workbench produced a result it could not send to this window.' },
};

interface WindowEntry {
  contents: WebContents;
  session: HostSession;
  send(channel: string, ...args: unknown[]): void;
  /** Unacknowledged chunks per stream: a page that stops reading makes `emit` wait. */
  credits: StreamCredits;
}

/** Installs one handler per operation; windows are added with `addWindow`. */
export function setupIpc(options: IpcGateOptions): IpcGate {
  const { host, log } = options;
  const windows = new Map<WebContents, WindowEntry>();
  const disposers = new Set<() => void>();

  /** The window a message came from, if it is one of ours and the message passes the frame check. */
  const trusted = (event: IpcMainInvokeEvent, channel: string): WindowEntry => {
    const entry = windows.get(event.sender);
    if (entry && isTrustedSender(event, entry.contents)) return entry;
    log(`[ipc] refused ${channel} from ${event.senderFrame?.url ?? 'a destroyed frame'}`);
    throw new Error(`${channel} is only available to the workbench window.`);
  };

  const channels = operationChannels(options.contract);
  for (const { channel, kind } of channels) {
    ipcMain.removeHandler(channel);
    if (kind === 'call') {
      // opId (optional): the caller-made id `ops.cancel` names; a malformed one is the host's to refuse.
      ipcMain.handle(channel, (event, input: unknown, opId: unknown) =>
        host.call(trusted(event, channel).session, channel, input, opId === undefined ? undefined : String(opId)),
      );
    } else {
      ipcMain.handle(channel, (event, input: unknown, streamId: unknown) => {
        const entry = trusted(event, channel);
        if (typeof streamId !== 'string') {
          return { ok: false, error: { code: 'invalid_input', message: `${channel} needs a stream id.` } } satisfies CallReply;
        }
        void host.stream(entry.session, channel, input, streamId).then((reply) => {
          entry.credits.end(streamId);
          try {
            entry.send(IPC_STREAM_END, streamId, reply);
          } catch (err) {
            // The result could not be cloned across IPC; the page must still learn the stream ended.
            log(`[ipc] ${channel} result not sendable: ${err instanceof Error ? err.message : String(err)}`);
            entry.send(IPC_STREAM_END, streamId, UNSENDABLE);
          }
        });
        return STREAM_STARTED;
      });
    }
  }

  // The page's acknowledgements of stream chunks (preload/ipc-transport.ts), from our frame only.
  const onAck = (event: IpcMainEvent, streamId: unknown, chunks: unknown, bytes: unknown) => {
    const entry = windows.get(event.sender);
    if (!entry || !isTrustedSender(event as unknown as IpcMainInvokeEvent, entry.contents)) return;
    if (typeof streamId === 'string' && typeof chunks === 'number' && typeof bytes === 'number') entry.credits.ack(streamId, chunks, bytes);
  };
  ipcMain.removeAllListeners(IPC_STREAM_ACK);
  ipcMain.on(IPC_STREAM_ACK, onAck);

  function addWindow(window: BrowserWindow): () => void {
    const contents = window.webContents;
    const credits = new StreamCredits();
    const send = (channel: string, ...args: unknown[]) => {
      if (!contents.isDestroyed()) contents.send(channel, ...args);
    };
    const session: HostSession = {
      id: `window-${contents.id}`,
      sendChunk: (streamId, chunk) => {
        if (contents.isDestroyed()) return;
        send(IPC_STREAM_CHUNK, streamId, chunk);
        return credits.sent(streamId, chunkCost(chunk));
      },
      // A keyed event carries its key as a second argument (the preload dispatches on it).
      sendEvent: (channel, payload, key) => (key === undefined ? send(channel, payload) : send(channel, payload, key)),
    };
    windows.set(contents, { contents, session, send, credits });
    let detach = host.attach(session);
    // A reload is a new page: the old page's calls, streams and sessions have no one left to read them.
    const onNavigate = () => {
      credits.reset();
      detach();
      detach = host.attach(session);
    };
    const remove = () => {
      if (!disposers.delete(remove)) return;
      contents.off('did-navigate', onNavigate);
      contents.off('render-process-gone', remove);
      contents.off('destroyed', remove);
      windows.delete(contents);
      credits.reset();
      detach();
    };
    contents.on('did-navigate', onNavigate);
    contents.on('render-process-gone', remove);
    contents.on('destroyed', remove);
    disposers.add(remove);
    return remove;
  }

  return {
    addWindow,
    dispose() {
      for (const { channel } of channels) ipcMain.removeHandler(channel);
      ipcMain.off(IPC_STREAM_ACK, onAck);
      for (const remove of [...disposers]) remove();
    },
  };
}
