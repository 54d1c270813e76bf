// The browser-mode server's connection limits, probed as a misbehaving local program would: a
// client that trickles its headers is cut off, one that opens more sockets or more WebSocket
// sessions than allowed is refused, and closing frees the slots again.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { contract } from '../../../../shared/contract/index';
import { startBrowserServer, type BrowserServer } from '../../../../main/host/browser-server';
import { DEFAULT_CONNECTION_LIMITS } from '../../../../main/host/connection-limits';
import { createHost } from '../../../../main/host/host';
import { createFakeHandlers } from './fake-handlers';

const LIMITS = { socketsPerClient: 12, webSocketsPerClient: 3, headersTimeoutMs: 400, idleTimeoutMs: 60_000 };
let root: string;
let server: BrowserServer;
const logs: string[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'wb-limits-'));
  mkdirSync(join(root, 'renderer'));
  writeFileSync(join(root, 'renderer', 'index.html'), '<!doctype html><title>workbench</title>');
  server = await startBrowserServer({
    host: createHost({ contract, handlers: createFakeHandlers().handlers }),
    staticDir: join(root, 'renderer'),
    limits: LIMITS,
    log: (line) => logs.push(line),
  });
});

afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

const rawSocket = (): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });

/** Resolves with how long the server took to close `socket`, or null if it stayed open `waitMs`. */
const closedWithin = (socket: Socket, waitMs: number): Promise<number | null> =>
  new Promise((resolve) => {
    const start = Date.now();
    const timer = setTimeout(() => resolve(null), waitMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - start);
    });
    socket.on('error', () => undefined);
    socket.resume();
  });

const openTab = (): Promise<{ ws?: WebSocket; status: number }> =>
  new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, ['workbench', `token.${server.token}`], { origin: `http://127.0.0.1:${server.port}` });
    ws.once('open', () => resolve({ ws, status: 101 }));
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0 });
    });
    ws.once('error', () => resolve({ status: 0 }));
  });

const closeTab = (ws: WebSocket): Promise<void> =>
  new Promise((resolve) => {
    ws.once('close', () => resolve());
    ws.close();
  });

describe('browser-server connection limits', () => {
  it('has defaults a person with many tabs never meets', () => {
    expect(DEFAULT_CONNECTION_LIMITS).toMatchObject({ socketsPerClient: 256, webSocketsPerClient: 32, headersTimeoutMs: 10_000 });
  });

  it('disconnects a client that sends its headers too slowly (well before 90 s)', async () => {
    const socket = await rawSocket();
    socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`);
    // Trickle a header line now and then, never finishing the request.
    const trickle = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 100);
    const closedAfter = await closedWithin(socket, 5_000);
    clearInterval(trickle);
    expect(closedAfter).not.toBeNull();
    expect(closedAfter!).toBeGreaterThanOrEqual(LIMITS.headersTimeoutMs - 50);
  });

  it('serves a complete request normally', async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/`);
    expect(res.status).toBe(200);
  });

  it('refuses sockets past the per-client limit and accepts again once some close', async () => {
    const held = await Promise.all(Array.from({ length: LIMITS.socketsPerClient }, rawSocket));
    // Let the server count them all before the next arrives.
    await new Promise((r) => setTimeout(r, 50));
    const extra = await rawSocket();
    expect(await closedWithin(extra, 2_000)).not.toBeNull();
    expect(logs.some((line) => line.includes(`it already holds ${LIMITS.socketsPerClient}`))).toBe(true);
    for (const socket of held.slice(0, 2)) socket.destroy();
    await new Promise((r) => setTimeout(r, 50));
    const later = await rawSocket();
    expect(await closedWithin(later, 200)).toBeNull();
    later.destroy();
    for (const socket of held.slice(2)) socket.destroy();
    await new Promise((r) => setTimeout(r, 50));
  });

  it('refuses a WebSocket session past the per-client limit with 429 and a reason, and frees the slot on close', async () => {
    const tabs = await Promise.all(Array.from({ length: LIMITS.webSocketsPerClient }, openTab));
    expect(tabs.map((t) => t.status)).toEqual([101, 101, 101]);
    expect((await openTab()).status).toBe(429);
    expect(logs.some((line) => line.includes('refused a session') && line.includes('3 are open'))).toBe(true);
    await closeTab(tabs[0].ws!);
    await new Promise((r) => setTimeout(r, 50));
    const again = await openTab();
    expect(again.status).toBe(101);
    for (const tab of [again, ...tabs.slice(1)]) await closeTab(tab.ws!);
  });
});
