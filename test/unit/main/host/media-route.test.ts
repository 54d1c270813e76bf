// Browser mode's /media/<hash> route over real HTTP: Range answers a media element relies on to
// seek, the per-blob token (never the page's access token), and what an unknown or malformed
// name gets.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract } from '../../../../shared/contract/index';
import { startBrowserServer, type BrowserServer } from '../../../../main/host/browser-server';
import { createHost } from '../../../../main/host/host';
import { MediaTokens } from '../../../../main/host/media-token';
import { MediaService } from '../../../../main/services/media-service';
import { addBlobRef } from '../../../../main/store/blob-rows';
import { BlobStore } from '../../../../main/store/blobs';
import { closeDatabase, openDatabase, type Db } from '../../../../main/store/db';
import { createFakeHandlers } from './fake-handlers';

const BYTES = randomBytes(10_000);
let root: string;
let db: Db;
let server: BrowserServer;
let tokens: MediaTokens;
let media: MediaService;
let hash: string;
let now = 1_000_000;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'wb-media-'));
  mkdirSync(join(root, 'renderer'));
  writeFileSync(join(root, 'renderer', 'index.html'), '<!doctype html>');
  db = openDatabase(':memory:');
  const store = new BlobStore(join(root, 'blobs'));
  const info = await store.put(BYTES);
  hash = info.hash;
  addBlobRef(db, { ...info, mime: 'video/mp4' });
  tokens = new MediaTokens(() => now, 60_000);
  media = new MediaService(db, store, (h) => {
    const { token, expiresAt } = tokens.issue(h);
    return { url: `/media/${h}?t=${token}`, expiresAt };
  });
  server = await startBrowserServer({
    host: createHost({ contract, handlers: createFakeHandlers().handlers }),
    staticDir: join(root, 'renderer'),
    media: { lookup: media, tokens },
  });
});

afterAll(async () => {
  await server.close();
  closeDatabase(db);
  rmSync(root, { recursive: true, force: true });
});

function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method, headers: { Host: `127.0.0.1:${server.port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('GET /media/<hash>', () => {
  it('gives the page a URL that carries a per-blob token, not the access token', async () => {
    const link = await media.url(hash);
    expect(link).toMatchObject({ mime: 'video/mp4', size: BYTES.length, expiresAt: now + 60_000 });
    expect(link.url).toMatch(new RegExp(`^/media/${hash}\\?t=\\d+\\.[A-Za-z0-9_-]{43}$`));
    expect(link.url).not.toContain(server.token);
  });

  it('serves the whole blob with its type from the row when there is no Range', async () => {
    const res = await get((await media.url(hash)).url);
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({ 'content-type': 'video/mp4', 'accept-ranges': 'bytes', 'content-length': '10000' });
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(res.body.equals(BYTES)).toBe(true);
  });

  it.each([
    ['bytes=0-99', 0, 99],
    ['bytes=9000-', 9000, 9999],
    ['bytes=-256', 9744, 9999],
  ])('answers %s with 206 and exactly those bytes', async (range, start, end) => {
    const res = await get((await media.url(hash)).url, { Range: range });
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/10000`);
    expect(res.body.equals(BYTES.subarray(start, end + 1))).toBe(true);
  });

  it('answers a range beyond the end with 416 and bytes */size', async () => {
    const res = await get((await media.url(hash)).url, { Range: 'bytes=10000-' });
    expect(res.status).toBe(416);
    expect(res.headers['content-range']).toBe('bytes */10000');
    expect(res.body.length).toBe(0);
  });

  it('answers HEAD with the headers only', async () => {
    const res = await get((await media.url(hash)).url, { Range: 'bytes=0-9' }, 'HEAD');
    expect(res.status).toBe(206);
    expect(res.headers['content-length']).toBe('10');
    expect(res.body.length).toBe(0);
  });

  it('refuses a request without a token, with the page token, another blob\'s token or an expired one with 401', async () => {
    expect((await get(`/media/${hash}`)).status).toBe(401);
    expect((await get(`/media/${hash}?t=${server.token}`)).status).toBe(401);
    expect((await get(`/media/${hash}`, { Authorization: `Bearer ${server.token}` })).status).toBe(401);
    const other = tokens.issue('b'.repeat(64)).token;
    expect((await get(`/media/${hash}?t=${other}`)).status).toBe(401);
    const url = (await media.url(hash)).url;
    now += 60_001;
    expect((await get(url)).status).toBe(401);
  });

  it('answers 404 for a malformed name and for a blob nothing refers to, token or not', async () => {
    expect((await get(`/media/${hash.toUpperCase()}?t=${tokens.issue(hash.toUpperCase()).token}`)).status).toBe(404);
    expect((await get(`/media/..%2f..%2fsecret?t=x`)).status).toBe(404);
    const unknown = 'c'.repeat(64);
    expect((await get(`/media/${unknown}?t=${tokens.issue(unknown).token}`)).status).toBe(404);
    await expect(media.url(unknown)).rejects.toMatchObject({ error: { code: 'not_found' } });
  });

  it('refuses other methods', async () => {
    expect((await get((await media.url(hash)).url, {}, 'POST')).status).toBe(405);
  });
});
