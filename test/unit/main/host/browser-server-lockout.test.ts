// A local program without the token must not be able to lock the page out of browser mode: with
// the server's default limits, 300 sockets that never send a byte, 300 kept-alive sockets that ask
// for /favicon.ico again and again, and 100 that ask for a large file and never read the answer
// are open, and the real page still loads, makes its token requests (a Bearer request, a media
// link) and opens its WebSocket and calls over it.
import { randomBytes } from 'node:crypto';
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

const ATTACKERS = 300;
const BLOB = randomBytes(4096);
const HASH = 'a'.repeat(64);
let root: string;
let server: BrowserServer;
let tokens: MediaTokens;
const attackers: Socket[] = [];
/** Paused, so they never see the server close them: not counted below. */
const stuck: Socket[] = [];
const timers: NodeJS.Timeout[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'wb-lockout-'));
  mkdirSync(join(root, 'renderer'));
  writeFileSync(join(root, 'renderer', 'index.html'), '<!doctype html><title>workbench</title>');
  // Larger than what the loopback socket buffers take, so an answer nobody reads stays in flight.
  writeFileSync(join(root, 'renderer', 'big.js'), Buffer.alloc(16 * 1024 * 1024, 0x20));
  writeFileSync(join(root, 'blob'), BLOB);
  tokens = new MediaTokens();
  server = await startBrowserServer({
    host: createHost({ contract, handlers: createFakeHandlers().handlers }),
    staticDir: join(root, 'renderer'),
    media: { lookup: { find: async (hash) => (hash === HASH ? { path: join(root, 'blob'), size: BLOB.length, mime: 'video/mp4' } : null) }, tokens },
  });
});

afterAll(async () => {
  for (const timer of timers) clearInterval(timer);
  for (const socket of [...attackers, ...stuck]) socket.destroy();
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

/** A socket that connects and then says nothing. */
function silent(): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(server.port, '127.0.0.1', () => resolve(socket));
    socket.on('error', () => resolve(socket));
    socket.resume();
  });
}

/** A socket that asks for /favicon.ico (no token needed) now, and every 500 ms on the same connection. */
function keptAlive(): Promise<Socket> {
  return new Promise((resolve) => {
    const ask = () => socket.writable && socket.write(`GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
    const socket = connect(server.port, '127.0.0.1', () => {
      ask();
      timers.push(setInterval(ask, 500));
      resolve(socket);
    });
    socket.on('error', () => resolve(socket));
    socket.resume();
  });
}

/** A socket that asks for a large file and never reads the answer. */
function neverReads(): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(server.port, '127.0.0.1', () => {
      socket.write(`GET /big.js HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
      resolve(socket);
    });
    socket.on('error', () => resolve(socket));
    socket.pause();
  });
}

/** The status of a GET on a fresh connection (as a page's new request would open one). */
function get(path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, agent: false, headers: { Host: `127.0.0.1:${server.port}`, ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

function openTab(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, ['workbench', `token.${server.token}`], { origin: `http://127.0.0.1:${server.port}` });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

describe('browser-server lockout', () => {
  it('keeps serving the page while 300 silent, 300 kept-alive and 100 never-reading sockets without the token are open', async () => {
    // More than the limit that used to count every socket alike (256), of either kind.
    expect(ATTACKERS).toBeGreaterThan(DEFAULT_CONNECTION_LIMITS.socketsPerClient);
    for (let i = 0; i < ATTACKERS; i++) attackers.push(await silent(), await keptAlive());
    // More than the cap of connections without the token, each with an answer stuck in flight.
    for (let i = 0; i < 100; i++) stuck.push(await neverReads());
    // Let the kept-alive ones ask at least once more.
    await new Promise((r) => setTimeout(r, 600));

    // The page loads (no token yet: it is in the fragment) ...
    expect(await get('/')).toBe(200);
    // ... makes its token requests ...
    expect(await get('/health', { Authorization: `Bearer ${server.token}` })).toBe(200);
    expect(await get(`/media/${HASH}?t=${tokens.issue(HASH).token}`)).toBe(200);
    // ... and opens its WebSocket, over which calls are answered.
    const ws = await openTab();
    const reply = new Promise<unknown>((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))));
    ws.send(JSON.stringify({ t: 'call', id: 1, method: 'app.info' }));
    expect(await reply).toMatchObject({ t: 'reply', id: 1, reply: { ok: true } });
    ws.close();

    // The sockets without the token never held more than their own small share.
    const stillOpen = attackers.filter((s) => !s.destroyed && s.readyState === 'open').length;
    expect(stillOpen).toBeLessThanOrEqual(DEFAULT_CONNECTION_LIMITS.unauthenticatedSockets);
  });
});
