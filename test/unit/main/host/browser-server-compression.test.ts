// Browser mode sends the build's precompressed copies to a browser that accepts them, with the
// headers a cache needs (Content-Encoding, Vary), and the plain file to one that does not.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract } from '../../../../shared/contract/index';
import { startBrowserServer, type BrowserServer } from '../../../../main/host/browser-server';
import { createHost } from '../../../../main/host/host';
import { createFakeHandlers } from './fake-handlers';

const SCRIPT = `export const answer = ${JSON.stringify('forty-two '.repeat(500))};\n`;
let root: string;
let server: BrowserServer;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'wb-gz-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>workbench</title>');
  writeFileSync(join(root, 'assets', 'app.js'), SCRIPT);
  writeFileSync(join(root, 'assets', 'app.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(root, 'assets', 'app.js.gz'), gzipSync(SCRIPT));
  server = await startBrowserServer({ host: createHost({ contract, handlers: createFakeHandlers().handlers }), staticDir: root });
});

afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

function get(path: string, acceptEncoding?: string): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: `127.0.0.1:${server.port}` };
    if (acceptEncoding) headers['Accept-Encoding'] = acceptEncoding;
    const req = request({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('browser-server compression', () => {
  it('sends the Brotli copy to a browser that takes it, and it decodes to the file', async () => {
    const res = await get('/assets/app.js', 'gzip, deflate, br');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(SCRIPT.length / 10);
    expect(brotliDecompressSync(res.body).toString()).toBe(SCRIPT);
  });

  it('sends gzip to a client without Brotli and the plain file to one without either', async () => {
    const gz = await get('/assets/app.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(SCRIPT);
    const plain = await get('/assets/app.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(SCRIPT);
  });

  it('serves a file that has no copy as it is', async () => {
    const index = await get('/', 'br');
    expect(index.headers['content-encoding']).toBeUndefined();
    expect(index.body.toString()).toContain('<title>workbench</title>');
  });
});
