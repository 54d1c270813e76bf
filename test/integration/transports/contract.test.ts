// One contract suite, run over both transports: Electron IPC (main/electron/ipc.ts + the preload's
// transport, over an in-memory ipcMain/ipcRenderer pair) and browser mode (the real loopback
// server + the renderer's WebSocket transport, using the `ws` client as the page's WebSocket).
// The contract is the real one plus the test-only `probe` family (calls to cancel, sessions, bytes).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { createWorkbenchApi, type BridgeTransport } from '../../../shared/contract/bridge';
import type { ApiFor } from '../../../shared/contract/api';
import type { ConnectionsState } from '../../../shared/contract/connections';
import { WorkbenchFailure } from '../../../shared/contract/errors';
import { SESSION_INBOUND_QUEUE, SESSION_SEND_WINDOW, SOCKET_HIGH_WATER_BYTES } from '../../../shared/contract/protocol';
import { startBrowserServer } from '../../../main/host/browser-server';
import type { TypedEmit } from '../../../main/host/handlers';
import { createHost } from '../../../main/host/host';
import { setupIpc } from '../../../main/electron/ipc';
import { createIpcTransport } from '../../../preload/ipc-transport';
import { createWsTransport, type SocketLike, type WsTransport } from '../../../renderer/src/bridge/ws-transport';
import { createFakeHandlers, FAKE_INFO, FAKE_STATE, SECRET_DETAIL, WAIT_FOR_CANCEL } from '../../unit/main/host/fake-handlers';
import { floodBytes, testContract, type ProbeChunk, type ProbeState, type TestContract } from '../../unit/main/host/probe-family';
import { createFakeWindow } from './fake-electron';

vi.mock('electron', async () => ({ ipcMain: (await import('./fake-electron')).fakeIpcMain }));

/** Frame types one browser-mode page wrote and read ('text' | 'binary'), in order. */
interface FrameLog {
  sent: Array<'text' | 'binary'>;
  received: Array<'text' | 'binary'>;
}

interface Harness {
  kind: 'ipc' | 'ws';
  /** The page under test, and a second page (another window or tab). */
  api: ApiFor<TestContract>;
  other: ApiFor<TestContract>;
  transport: BridgeTransport;
  emit: TypedEmit<TestContract>;
  signals: AbortSignal[];
  probe: ProbeState;
  /** `ops.send` calls the page under test has issued (its messages handed to the transport). */
  sendsIssued(): number;
  /** Browser mode: the page's frames and its socket (to pause reading, like a slow page). */
  frames?: FrameLog;
  socket?: () => WebSocket;
  /** The page under test goes away (window destroyed, tab closed). */
  disconnect(): void;
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

async function ipcHarness(): Promise<Harness> {
  const fake = createFakeHandlers();
  const host = createHost({ contract: testContract, handlers: fake.handlers });
  const gate = setupIpc({ host, contract: testContract, log: () => {} });
  const [a, b] = [createFakeWindow(), createFakeWindow()];
  gate.addWindow(a.window);
  gate.addWindow(b.window);
  const mine = counting(createIpcTransport(a.ipcRenderer));
  return {
    kind: 'ipc',
    api: createWorkbenchApi(mine.transport, testContract),
    other: createWorkbenchApi(createIpcTransport(b.ipcRenderer), testContract),
    transport: mine.transport,
    emit: host.emit,
    signals: fake.signals,
    probe: fake.probe,
    sendsIssued: mine.issued,
    disconnect: () => a.webContents.destroy(),
    close: async () => {
      gate.dispose();
      host.dispose();
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

async function wsHarness(): Promise<Harness> {
  const fake = createFakeHandlers();
  const host = createHost({ contract: testContract, handlers: fake.handlers });
  const staticDir = mkdtempSync(join(tmpdir(), 'wb-static-'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  const server = await startBrowserServer({ host, staticDir });
  const origin = `http://127.0.0.1:${server.port}`;
  const frames: FrameLog = { sent: [], received: [] };
  let socket: WebSocket | null = null;
  const open = (log?: FrameLog) =>
    createWsTransport({
      url: `ws://127.0.0.1:${server.port}/ws`,
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
          ws.on('message', (_data, isBinary) => log.received.push(isBinary ? 'binary' : 'text'));
        }
        return ws as unknown as SocketLike;
      },
    });
  const [a, b] = [open(frames), open()];
  await Promise.all([connected(a), connected(b)]);
  const mine = counting(a);
  return {
    kind: 'ws',
    api: createWorkbenchApi(mine.transport, testContract),
    other: createWorkbenchApi(b, testContract),
    transport: mine.transport,
    emit: host.emit,
    signals: fake.signals,
    probe: fake.probe,
    sendsIssued: mine.issued,
    frames,
    socket: () => socket as unknown as WebSocket,
    disconnect: () => a.dispose(),
    close: async () => {
      a.dispose();
      b.dispose();
      await server.close();
      host.dispose();
      rmSync(staticDir, { recursive: true, force: true });
    },
  };
}

/** Polls `condition` between event-loop turns (I/O included) until it holds; fails after 10 s. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** The rejection of `promise` (fails the test if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<WorkbenchFailure> {
  const outcome = await promise.then(
    () => null,
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(WorkbenchFailure);
  return outcome as WorkbenchFailure;
}

const chat = (model: string) => ({ request: { model, messages: [{ role: 'user' as const, content: 'hi' }] } });

describe.each([
  ['Electron IPC', ipcHarness],
  ['browser-mode WebSocket', wsHarness],
])('contract over %s', (_name, makeHarness) => {
  let h: Harness;
  beforeEach(async () => {
    h = await makeHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('returns a call’s value', async () => {
    expect(await h.api.app.info()).toEqual(FAKE_INFO);
  });

  it('rejects invalid input with invalid_input and the failing fields', async () => {
    const err = await rejection(h.api.history.get({ id: '../etc/passwd' }));
    expect(err.error.code).toBe('invalid_input');
    expect(err.error.issues?.map((i) => i.path)).toEqual(['id']);
  });

  it('answers unknown_method for an operation main does not serve', async () => {
    const reply = await h.transport.call('files.shred', {});
    expect(reply.ok ? null : reply.error.code).toBe('unknown_method');
  });

  it('delivers stream chunks in order, then the result', async () => {
    const chunks: unknown[] = [];
    const handle = h.api.chat.send(chat('m'), (chunk) => chunks.push(chunk));
    const record = await handle.result;
    expect(record.status).toBe('completed');
    expect(chunks.map((c) => (c as { type: string; content?: string }).content ?? (c as { type: string }).type)).toEqual([
      'started',
      'a',
      'b',
      'c',
    ]);
  });

  it('rejects a stream with invalid input without starting it', async () => {
    const handle = h.api.chat.send({ request: { model: 'm', messages: [] } }, () => {});
    const err = await rejection(handle.result);
    expect(err.error).toMatchObject({ code: 'invalid_input', issues: [{ path: 'request.messages' }] });
    expect(h.signals).toHaveLength(0);
  });

  it('cancels: the handler’s signal aborts and the result is the cancelled record', async () => {
    let started!: () => void;
    const firstChunk = new Promise<void>((resolve) => (started = resolve));
    const handle = h.api.chat.send(chat(WAIT_FOR_CANCEL), () => started());
    await firstChunk;
    await handle.cancel();
    expect((await handle.result).status).toBe('cancelled');
    expect(h.signals[0].aborted).toBe(true);
  });

  it("refuses to cancel another window's stream", async () => {
    let started!: () => void;
    const firstChunk = new Promise<void>((resolve) => (started = resolve));
    const handle = h.api.chat.send(chat(WAIT_FOR_CANCEL), () => started());
    await firstChunk;
    expect(await h.other.streams.cancel({ streamId: handle.streamId })).toEqual({ cancelled: false });
    expect(h.signals[0].aborted).toBe(false);
    await handle.cancel();
    expect((await handle.result).status).toBe('cancelled');
  });

  it('delivers events to subscribers until they unsubscribe', async () => {
    const mine: ConnectionsState[] = [];
    const theirs: ConnectionsState[] = [];
    const off = h.api.connections.onChanged((state) => mine.push(state));
    h.other.connections.onChanged((state) => theirs.push(state));
    const first = { ...FAKE_STATE, activeId: 'one' };
    const second = { ...FAKE_STATE, activeId: 'two' };
    h.emit('connections.changed', first);
    // A round trip on each page: its reply travels behind the event.
    await Promise.all([h.api.app.info(), h.other.app.info()]);
    off();
    h.emit('connections.changed', second);
    await Promise.all([h.api.app.info(), h.other.app.info()]);
    expect(mine).toEqual([first]);
    expect(theirs).toEqual([first, second]);
  });

  it("passes a handler's WorkbenchError through as the rejection", async () => {
    const err = await rejection(h.api.connections.save({ name: 'x', baseUrl: 'https://api.example.com' }));
    expect(err.error).toEqual({ code: 'config', message: 'No key store is available on this system.' });
  });

  it('hides a crashing handler’s details behind a generic internal error', async () => {
    const err = await rejection(h.api.connections.remove({ id: 'abc' }));
    expect(err.error.code).toBe('internal');
    expect(err.message).not.toContain(SECRET_DETAIL);
  });
});
