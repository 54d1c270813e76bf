// The browser-mode server's connection limits, probed as a misbehaving local program would: a
// client that trickles its headers is cut off; connections without the token are few, closed when
// idle and make room for new ones; one that opens more sockets with the token or more WebSocket
// sessions than allowed is refused, and closing frees the slots again.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { contract } from '../../../../shared/contract/index';
import { startBrowserServer, type BrowserServer } from '../../../../main/host/browser-server';
import { DEFAULT_CONNECTION_LIMITS } from '../../../../main/host/connection-limits';
import { createHost } from '../../../../main/host/host';
import { MediaTokens } from '../../../../main/host/media-token';
import { createFakeHandlers } from './fake-handlers';

const LIMITS = { socketsPerClient: 5, unauthenticatedSockets: 6, unauthenticatedIdleMs: 1_000, webSocketsPerClient: 3, headersTimeoutMs: 400, idleTimeoutMs: 60_000 };
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
    // A browser opens about six connections per origin while the page loads.
    expect(DEFAULT_CONNECTION_LIMITS.unauthenticatedSockets).toBeGreaterThanOrEqual(24);
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

  it('keeps at most a few connections without the token, closing the oldest idle one to let a new one in', async () => {
    const held: Socket[] = [];
    for (let i = 0; i < LIMITS.unauthenticatedSockets; i++) held.push(await rawSocket());
    const closedFirst = closedWithin(held[0], 2_000);
    const newcomer = await rawSocket();
    expect(await closedFirst).not.toBeNull();
    expect(newcomer.destroyed).toBe(false);
    await new Promise((r) => setTimeout(r, 50));
    const open = [...held, newcomer].filter((s) => !s.destroyed && s.readyState === 'open');
    expect(open.length).toBeLessThanOrEqual(LIMITS.unauthenticatedSockets);
    for (const socket of [...held, newcomer]) socket.destroy();
  });

  it('closes a kept-alive connection without the token after its short idle time, while one that proved the token stays open', async () => {
    const silent = await rawSocket();
    const keptAlive = await rawSocket();
    const page = await rawSocket();
    try {
      keptAlive.write(`GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
      page.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${server.token}\r\n\r\n`);
      // Node itself would keep both kept-alive connections for 5 s (keepAliveTimeout).
      const [silentAfter, keptAliveAfter, pageAfter] = await Promise.all([closedWithin(silent, 4_000), closedWithin(keptAlive, 4_000), closedWithin(page, 2_500)]);
      expect(silentAfter).not.toBeNull();
      expect(keptAliveAfter).not.toBeNull();
      expect(pageAfter).toBeNull();
    } finally {
      for (const socket of [silent, keptAlive, page]) socket.destroy();
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  it('answers 429 to a request with the token past the per-client socket limit, and accepts again once one closes', async () => {
    const ask = async (): Promise<{ socket: Socket; status: number }> => {
      const socket = await rawSocket();
      socket.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${server.token}\r\n\r\n`);
      const head = await new Promise<string>((resolve) => socket.once('data', (d: Buffer) => resolve(d.toString())));
      return { socket, status: Number(head.split(' ')[1]) };
    };
    const held = [];
    for (let i = 0; i < LIMITS.socketsPerClient; i++) held.push(await ask());
    expect(held.map((h) => h.status)).toEqual(Array(LIMITS.socketsPerClient).fill(200));
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(logs.some((line) => line.includes(`it holds ${LIMITS.socketsPerClient} connections with the token`))).toBe(true);
    refused.socket.destroy();
    held[0].socket.destroy();
    await new Promise((r) => setTimeout(r, 50));
    const later = await ask();
    expect(later.status).toBe(200);
    for (const h of [later, ...held.slice(1)]) h.socket.destroy();
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

  describe('the page\'s downloads and media', () => {
    const BIG = 48 * 1024 * 1024;
    const HASH = 'b'.repeat(64);
    const TICKET = 't'.repeat(43);
    let pageServer: BrowserServer;
    const tokens = new MediaTokens();

    beforeAll(async () => {
      writeFileSync(join(root, 'big.bin'), Buffer.alloc(BIG, 3));
      pageServer = await startBrowserServer({
        host: createHost({ contract, handlers: createFakeHandlers().handlers }),
        staticDir: join(root, 'renderer'),
        limits: LIMITS,
        downloads: { take: (t) => (t === TICKET ? { path: join(root, 'big.bin'), filename: 'big.bin', bytes: BIG } : null), discard: () => undefined },
        media: { lookup: { find: async () => ({ path: join(root, 'big.bin'), size: BIG, mime: 'video/mp4' }) }, tokens },
      });
    });

    afterAll(() => pageServer.close());

    /** GETs `path`, stops reading for `pauseMs` after the first bytes, then reads the rest; resolves with the bytes read. */
    const readWithPause = (path: string, pauseMs: number): Promise<number> =>
      new Promise((resolve) => {
        let bytes = 0;
        const req = request({ host: '127.0.0.1', port: pageServer.port, path, headers: { Host: `127.0.0.1:${pageServer.port}` } }, (res) => {
          res.once('data', (chunk: Buffer) => {
            bytes += chunk.length;
            res.pause();
            setTimeout(() => {
              res.on('data', (more: Buffer) => (bytes += more.length));
              res.resume();
            }, pauseMs);
          });
          res.on('end', () => resolve(bytes));
          res.on('error', () => resolve(bytes));
        });
        req.on('error', () => resolve(bytes));
        req.end();
      });

    it('lets a download link or a media link pause longer than connections without the token may idle', async () => {
      const pause = LIMITS.unauthenticatedIdleMs * 2.5;
      expect(await readWithPause(`/downloads/${TICKET}`, pause)).toBe(BIG);
      expect(await readWithPause(`/media/${HASH}?t=${tokens.issue(HASH).token}`, pause)).toBe(BIG);
    });
  });
});
