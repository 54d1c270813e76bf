/**
 * The contract suite's two harnesses: the page under test and a second page over Electron IPC
 * (main/electron/ipc.ts + the preload's transport over an in-memory ipcMain/ipcRenderer pair; the
 * test file mocks 'electron' with it) or over browser mode (the real loopback server + the
 * renderer's WebSocket transport, with the `ws` client as the page's WebSocket), both on the real
 * contract plus the test-only probe family.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { createReplyApi, createWorkbenchApi, type BridgeTransport } from '../../../shared/contract/bridge';
import { fromReplyApi } from '../../../shared/contract/page-api';
import type { ApiFor } from '../../../shared/contract/api';
import { startBrowserServer } from '../../../main/host/browser-server';
import type { TypedEmit, TypedKeyedEmit } from '../../../main/host/handlers';
import { createHost } from '../../../main/host/host';
import { setupIpc } from '../../../main/electron/ipc';
import { createIpcTransport } from '../../../preload/ipc-transport';
import { createWsTransport, type SocketLike, type WsTransport } from '../../../renderer/src/bridge/ws-transport';
import { createFakeHandlers, type FakeHandlerOptions } from '../../unit/main/host/fake-handlers';
import type { LiveRegistry } from '../../../main/live/registry';
import type { LiveSessionSummary } from '../../../shared/contract/live';
import type { Host } from '../../../main/host/host';
import { testContract, type ProbeState, type TestContract } from '../../unit/main/host/probe-family';
import { acrossContextBridge, createFakeWindow } from './fake-electron';

/** Frame types one browser-mode page wrote and read ('text' | 'binary'), in order. */
export interface FrameLog {
  sent: Array<'text' | 'binary'>;
  received: Array<'text' | 'binary'>;
}

export interface Harness {
  kind: 'ipc' | 'ws';
  /** The page under test, and a second page (another window or tab). */
  api: ApiFor<TestContract>;
  other: ApiFor<TestContract>;
  transport: BridgeTransport;
  emit: TypedEmit<TestContract>;
  emitKeyed: TypedKeyedEmit<TestContract>;
  /** Keyed subscriptions main holds, all pages together. */
  keyedSubscriptions(): number;
  /** Events that crossed to the page under test (before any filtering in the page), in order. */
  wireEvents: Array<{ channel: string; key?: string }>;
  signals: AbortSignal[];
  probe: ProbeState;
  /** `ops.send` calls the page under test has issued (its messages handed to the transport). */
  sendsIssued(): number;
  /** Browser mode: the page's frames and its socket (to pause reading, like a slow page). */
  frames?: FrameLog;
  socket?: () => WebSocket;
  /** IPC: the page stops running (messages to it are held) until the returned function is called. */
  pausePage?: () => () => void;
  /** The page under test goes away (window destroyed, tab closed). */
  disconnect(): void;
  /** The page under test reloads: its old page is gone, and this is the new page's API. */
  reload(): Promise<ApiFor<TestContract>>;
  /** Browser mode: the page's socket drops (the transport reconnects by itself). */
  dropSocket?: () => void;
  /** Browser mode: the loopback server's address, origin and page token. */
  server?: { port: number; origin: string; token: string };
  /** Every status change of the page's transport (browser mode). */
  statuses?: string[];
  /** The live registry main's `live.*` answer over (with the test-only ticker kind). */
  live: LiveRegistry;
  /** Every `live.changed` main announced, in order. */
  liveChanges: LiveSessionSummary[];
  close(): Promise<void>;
}

/** Counts the page's `ops.send` calls on their way to the transport. */
function counting(transport: BridgeTransport): { transport: BridgeTransport; issued(): number } {
  let sends = 0;
  return {
    transport: {
      ...transport,
      call(channel, input, opId) {
        if (channel === 'ops.send') sends++;
        return transport.call(channel, input, opId);
      },
    },
    issued: () => sends,
  };
}

/** Fake handlers whose `live.changed` goes out through the host, as in the app. */
function hostWithFakes(options: FakeHandlerOptions = {}) {
  let host: Host<TestContract> | null = null;
  const fake = createFakeHandlers({ ...options, onLiveChanged: (summary) => host?.emit('live.changed', summary) });
  host = createHost({ contract: testContract, handlers: fake.handlers });
  return { fake, host };
}

export async function ipcHarness(options: FakeHandlerOptions = {}): Promise<Harness> {
  const { fake, host } = hostWithFakes(options);
  const gate = setupIpc({ host, contract: testContract, log: () => {} });
  const [a, b] = [createFakeWindow(), createFakeWindow()];
  const wireEvents: Harness['wireEvents'] = [];
  const send = a.webContents.send.bind(a.webContents);
  a.webContents.send = (channel: string, ...args: unknown[]) => {
    if (!channel.startsWith('workbench:')) wireEvents.push(typeof args[1] === 'string' ? { channel, key: args[1] } : { channel });
    send(channel, ...args);
  };
  gate.addWindow(a.window);
  gate.addWindow(b.window);
  const mine = counting(createIpcTransport(a.ipcRenderer));
  return {
    kind: 'ipc',
    // As in the app: the preload's reply api crosses contextBridge, and the page unwraps it.
    api: fromReplyApi(acrossContextBridge(createReplyApi(mine.transport, testContract)), testContract),
    other: fromReplyApi(acrossContextBridge(createReplyApi(createIpcTransport(b.ipcRenderer), testContract)), testContract),
    transport: mine.transport,
    emit: host.emit,
    emitKeyed: host.emitKeyed,
    keyedSubscriptions: () => host.keyedSubscriptions(),
    wireEvents,
    signals: fake.signals,
    probe: fake.probe,
    sendsIssued: mine.issued,
    pausePage: () => a.ipcRenderer.pause(),
    disconnect: () => a.webContents.destroy(),
    reload: async () => {
      // The old page's world is gone: its listeners with it; the new page builds its API afresh.
      a.webContents.emit('did-navigate');
      a.ipcRenderer.reset();
      return fromReplyApi(acrossContextBridge(createReplyApi(createIpcTransport(a.ipcRenderer), testContract)), testContract);
    },
    live: fake.live,
    liveChanges: fake.liveChanges,
    close: async () => {
      gate.dispose();
      host.dispose();
      await fake.live.shutdown();
    },
  };
}

function connected(transport: WsTransport): Promise<void> {
  return new Promise((resolve) => {
    if (transport.status() === 'connected') return resolve();
    const off = transport.onStatus((status) => {
      if (status === 'connected') {
        off();
        resolve();
      }
    });
  });
}

export async function wsHarness(options: FakeHandlerOptions = {}): Promise<Harness> {
  const { fake, host } = hostWithFakes(options);
  const staticDir = mkdtempSync(join(tmpdir(), 'wb-static-'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  const server = await startBrowserServer({ host, staticDir, uploadLanes: options.uploads?.lanes });
  const origin = `http://127.0.0.1:${server.port}`;
  const frames: FrameLog = { sent: [], received: [] };
  const wireEvents: Harness['wireEvents'] = [];
  let socket: WebSocket | null = null;
  const open = (log?: FrameLog) =>
    createWsTransport({
      url: `ws://127.0.0.1:${server.port}/ws`,
      backoff: { initialMs: 20, maxMs: 200 },
      token: server.token,
      connect: (url, protocols) => {
        const ws = new WebSocket(url, protocols, { origin });
        if (log) {
          socket = ws;
          const send = ws.send.bind(ws);
          ws.send = ((data: unknown, ...rest: never[]) => {
            log.sent.push(typeof data === 'string' ? 'text' : 'binary');
            return send(data as string, ...rest);
          }) as typeof ws.send;
          ws.on('message', (data, isBinary) => {
            log.received.push(isBinary ? 'binary' : 'text');
            if (isBinary) return;
            const msg = JSON.parse(String(data)) as { t: string; channel?: string; key?: string };
            if (msg.t === 'event') wireEvents.push(msg.key === undefined ? { channel: msg.channel! } : { channel: msg.channel!, key: msg.key });
          });
        }
        return ws as unknown as SocketLike;
      },
    });
  const [a, b] = [open(frames), open()];
  await Promise.all([connected(a), connected(b)]);
  const statuses: string[] = [];
  a.onStatus((status) => statuses.push(status));
  const mine = counting(a);
  const reloaded: WsTransport[] = [];
  return {
    kind: 'ws',
    api: createWorkbenchApi(mine.transport, testContract),
    other: createWorkbenchApi(b, testContract),
    transport: mine.transport,
    emit: host.emit,
    emitKeyed: host.emitKeyed,
    keyedSubscriptions: () => host.keyedSubscriptions(),
    wireEvents,
    signals: fake.signals,
    probe: fake.probe,
    sendsIssued: mine.issued,
    frames,
    server: { port: server.port, origin, token: server.token },
    socket: () => socket as unknown as WebSocket,
    disconnect: () => a.dispose(),
    reload: async () => {
      a.dispose();
      const next = open();
      reloaded.push(next);
      await connected(next);
      return createWorkbenchApi(next, testContract);
    },
    dropSocket: () => (socket as unknown as WebSocket).terminate(),
    statuses,
    live: fake.live,
    liveChanges: fake.liveChanges,
    close: async () => {
      a.dispose();
      b.dispose();
      for (const t of reloaded) t.dispose();
      await fake.live.shutdown();
      await server.close();
      host.dispose();
      rmSync(staticDir, { recursive: true, force: true });
    },
  };
}

/** Polls `condition` between event-loop turns (I/O included) until it holds; fails after 10 s. */
export async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
