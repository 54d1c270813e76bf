// One contract suite, run over both transports: Electron IPC (main/electron/ipc.ts + the preload's
// transport, over an in-memory ipcMain/ipcRenderer pair) and browser mode (the real loopback
// server + the renderer's WebSocket transport, using the `ws` client as the page's WebSocket).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { createWorkbenchApi, type BridgeTransport } from '../../../shared/contract/bridge';
import type { WorkbenchApi } from '../../../shared/contract/api';
import type { ConnectionsState } from '../../../shared/contract/connections';
import { WorkbenchFailure } from '../../../shared/contract/errors';
import { contract } from '../../../shared/contract/index';
import { startBrowserServer } from '../../../main/host/browser-server';
import { createHost } from '../../../main/host/host';
import { setupIpc } from '../../../main/electron/ipc';
import { createIpcTransport } from '../../../preload/ipc-transport';
import { createWsTransport, type SocketLike, type WsTransport } from '../../../renderer/src/bridge/ws-transport';
import { createFakeHandlers, FAKE_INFO, FAKE_STATE, SECRET_DETAIL, WAIT_FOR_CANCEL } from '../../unit/main/host/fake-handlers';
import { createFakeWindow } from './fake-electron';

vi.mock('electron', async () => ({ ipcMain: (await import('./fake-electron')).fakeIpcMain }));

interface Harness {
  /** The page under test, and a second page (another window or tab). */
  api: WorkbenchApi;
  other: WorkbenchApi;
  transport: BridgeTransport;
  emit(channel: string, payload: unknown): void;
  signals: AbortSignal[];
  close(): Promise<void>;
}

async function ipcHarness(): Promise<Harness> {
  const fake = createFakeHandlers();
  const host = createHost({ contract, handlers: fake.handlers });
  const gate = setupIpc({ host, contract, log: () => {} });
  const [a, b] = [createFakeWindow(), createFakeWindow()];
  gate.addWindow(a.window);
  gate.addWindow(b.window);
  const transport = createIpcTransport(a.ipcRenderer);
  return {
    api: createWorkbenchApi(transport),
    other: createWorkbenchApi(createIpcTransport(b.ipcRenderer)),
    transport,
    emit: (channel, payload) => host.emit(channel, payload),
    signals: fake.signals,
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
  const host = createHost({ contract, handlers: fake.handlers });
  const staticDir = mkdtempSync(join(tmpdir(), 'wb-static-'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  const server = await startBrowserServer({ host, staticDir });
  const origin = `http://127.0.0.1:${server.port}`;
  const open = () =>
    createWsTransport({
      url: `ws://127.0.0.1:${server.port}/ws`,
      token: server.token,
      connect: (url, protocols) => new WebSocket(url, protocols, { origin }) as unknown as SocketLike,
    });
  const [a, b] = [open(), open()];
  await Promise.all([connected(a), connected(b)]);
  return {
    api: createWorkbenchApi(a),
    other: createWorkbenchApi(b),
    transport: a,
    emit: (channel, payload) => host.emit(channel, payload),
    signals: fake.signals,
    close: async () => {
      a.dispose();
      b.dispose();
      await server.close();
      host.dispose();
      rmSync(staticDir, { recursive: true, force: true });
    },
  };
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
