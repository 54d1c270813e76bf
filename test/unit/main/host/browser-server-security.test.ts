// The browser-mode server's guards, tested from outside as an attacker would probe them: the
// Host header (DNS rebinding), the WebSocket's Origin (other sites) and token (other local
// programs), path traversal, the CSP, and the message size cap.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { contract } from '../../../../shared/contract/index';
import { MAX_MESSAGE_BYTES } from '../../../../shared/contract/protocol';
import { startBrowserServer, type BrowserServer } from '../../../../main/host/browser-server';
import { createHost } from '../../../../main/host/host';
import { createFakeHandlers } from './fake-handlers';

const SECRET = 'top secret contents outside the renderer folder';
let root: string;
let server: BrowserServer;
let base: { host: string; origin: string };

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'wb-sec-'));
  const staticDir = join(root, 'renderer');
  mkdirSync(join(staticDir, 'assets'), { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>workbench</title>');
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'export {};');
  writeFileSync(join(root, 'secret.txt'), SECRET);
  server = await startBrowserServer({ host: createHost({ contract, handlers: createFakeHandlers().handlers }), staticDir });
  base = { host: `127.0.0.1:${server.port}`, origin: `http://127.0.0.1:${server.port}` };
});

afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(path: string, headers: Record<string, string> = {}): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers: { Host: base.host, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Attempts a WebSocket upgrade; resolves with 101 or the refusal's status. */
function upgrade(headers: Record<string, string | undefined>, path = '/ws'): Promise<number> {
  const all: Record<string, string> = {
    Host: base.host,
    Connection: 'Upgrade',
    Upgrade: 'websocket',
    'Sec-WebSocket-Version': '13',
    'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
  };
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) delete all[k];
    else all[k] = v;
  }
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers: all });
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      resolve(101);
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

const good = () => ({ Origin: base.origin, 'Sec-WebSocket-Protocol': `workbench, token.${server.token}` });

function openSocket(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, ['workbench', `token.${server.token}`], { origin: base.origin });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function nextMessage(ws: WebSocket): Promise<unknown> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))));
}

describe('browser-server', () => {
  describe('startBrowserServer()', () => {
    it('listens on loopback and puts a fresh 256-bit token in the URL fragment', async () => {
      expect(server.url).toBe(`http://127.0.0.1:${server.port}/#token=${server.token}`);
      expect(Buffer.from(server.token, 'base64url')).toHaveLength(32);
      const another = await startBrowserServer({ host: createHost({ contract, handlers: createFakeHandlers().handlers }), staticDir: root });
      expect(another.token).not.toBe(server.token);
      await another.close();
    });
  });

  describe('HTTP', () => {
    it('serves index.html with a strict CSP and no caching', async () => {
      const res = await get('/');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      const csp = String(res.headers['content-security-policy']);
      const directives = Object.fromEntries(csp.split(/;\s*/).map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
      expect(directives['script-src']).toEqual(["'self'"]);
      expect(directives['object-src']).toEqual(["'none'"]);
      expect(directives['base-uri']).toEqual(["'none'"]);
      expect(directives['frame-ancestors']).toEqual(["'none'"]);
      expect(directives['connect-src']).toContain(`ws://127.0.0.1:${server.port}`);
      expect(csp).not.toMatch(/unsafe-eval/);
    });

    it('serves assets with their MIME type', async () => {
      const res = await get('/assets/app.js');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    });

    it.each(['evil.example', 'evil.example:PORT', '127.0.0.1.nip.io:PORT', '127.0.0.1:1', 'localhost'])('refuses Host "%s" with 403', async (hostHeader) => {
      const res = await get('/', { Host: hostHeader.replace('PORT', String(server.port)) });
      expect(res.status).toBe(403);
    });

    it('answers the browser’s own favicon request with no content rather than an error', async () => {
      expect((await get('/favicon.ico')).status).toBe(204);
    });

    it('accepts localhost:<port> as Host', async () => {
      expect((await get('/', { Host: `localhost:${server.port}` })).status).toBe(200);
    });

    it.each(['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/..%5csecret.txt', '/%00', '/%E0%A4%A'])(
      'never serves anything outside the renderer folder for %s',
      async (path) => {
        const res = await get(path);
        expect([400, 403, 404]).toContain(res.status);
        expect(res.body).not.toContain(SECRET);
      },
    );

    it('requires the token on /health', async () => {
      expect((await get('/health')).status).toBe(401);
      expect((await get('/health', { Authorization: 'Bearer wrong' })).status).toBe(401);
      expect((await get('/health', { Authorization: `Bearer ${server.token}` })).status).toBe(200);
    });
  });

  describe('WebSocket upgrade', () => {
    it('accepts our origin with the token', async () => {
      expect(await upgrade(good())).toBe(101);
    });

    it('refuses a missing or wrong token with 401', async () => {
      expect(await upgrade({ ...good(), 'Sec-WebSocket-Protocol': 'workbench' })).toBe(401);
      expect(await upgrade({ ...good(), 'Sec-WebSocket-Protocol': undefined })).toBe(401);
      expect(await upgrade({ ...good(), 'Sec-WebSocket-Protocol': `workbench, token.${server.token.slice(1)}x` })).toBe(401);
    });

    it('refuses a foreign or missing Origin with 403', async () => {
      expect(await upgrade({ ...good(), Origin: 'https://evil.example' })).toBe(403);
      expect(await upgrade({ ...good(), Origin: `http://127.0.0.1:${server.port + 1}` })).toBe(403);
      expect(await upgrade({ ...good(), Origin: undefined })).toBe(403);
    });

    it('refuses a foreign Host with 403 even with origin and token right', async () => {
      expect(await upgrade({ ...good(), Host: `evil.example:${server.port}` })).toBe(403);
    });

    it('answers a malformed message with an error and keeps the connection', async () => {
      const ws = await openSocket();
      ws.send('{not json');
      expect(await nextMessage(ws)).toMatchObject({ t: 'reply', id: -1, reply: { ok: false, error: { code: 'invalid_input' } } });
      ws.send(JSON.stringify({ t: 'call', id: 7 }));
      expect(await nextMessage(ws)).toMatchObject({ t: 'reply', id: 7, reply: { ok: false, error: { code: 'invalid_input' } } });
      ws.send(JSON.stringify({ t: 'call', id: 8, method: 'app.info' }));
      expect(await nextMessage(ws)).toMatchObject({ t: 'reply', id: 8, reply: { ok: true } });
      ws.close();
    });

    it('closes the connection (1009) on a message over the size cap', async () => {
      const ws = await openSocket();
      const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
      ws.on('error', () => {});
      ws.send('x'.repeat(MAX_MESSAGE_BYTES + 1));
      expect(await closed).toBe(1009);
    });

    it('declines permessage-deflate (offered by ws and browsers): uploads are raw binary frames, never compressed', async () => {
      const ws = await openSocket();
      expect(ws.extensions).toBe('');
      ws.close();
    });
  });
});
