import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createPublicUrl,
  deleteFile,
  downloadFileContent,
  getFile,
  listFiles,
  revokePublicUrl,
  updateFile,
  uploadFile,
} from '../../../../main/api/files';
import type { FileObject } from '../../../../shared/wire/files';
import { useLocalClient } from './local-client';
import { sendJson } from './local-server';

const setup = useLocalClient({ random: () => 0 });

const FILE: FileObject = { id: 'file_a1', object: 'file', bytes: 11, created_at: 1762345678, expires_at: null, filename: 'hello.txt' };

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'iw-files-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('files', () => {
  it('uploads with expires_after before file and answers the File', async () => {
    const { server, client } = await setup((_req, res) => sendJson(res, 200, FILE));
    const path = join(dir, 'hello.txt');
    writeFileSync(path, 'hello world');
    let last: [number, number] = [0, 0];
    const result = await uploadFile(client, { path, filename: 'hello.txt', contentType: 'text/plain', expiresAfter: 7200 }, { onProgress: (s, t) => (last = [s, t]) });
    expect(result).toMatchObject({ ok: true, value: FILE });
    const got = server.received[0];
    expect(got).toMatchObject({ method: 'POST', url: '/v1/files' });
    const text = got.raw.toString();
    expect(text.indexOf('name="expires_after"\r\n\r\n7200\r\n')).toBeGreaterThan(0);
    expect(text.indexOf('name="expires_after"')).toBeLessThan(text.indexOf('name="file"; filename="hello.txt"'));
    expect(text).toContain('Content-Type: text/plain\r\n\r\nhello world\r\n');
    expect(last).toEqual([got.raw.byteLength, got.raw.byteLength]);
  });

  it('an upload of a missing file sends nothing and says which file', async () => {
    const { server, client } = await setup((_req, res) => sendJson(res, 200, FILE));
    const path = join(dir, 'gone.txt');
    const result = await uploadFile(client, { path, filename: 'gone.txt', contentType: 'text/plain' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'file', message: 'Could not read gone.txt (it does not exist). Nothing was uploaded.' }, meta: null });
    expect(result.captured).toMatchObject({ method: 'POST', body: { multipart: [{ name: 'file', filename: 'gone.txt', contentType: 'text/plain', bytes: 0 }] } });
    expect(JSON.stringify(result.captured)).not.toContain(dir);
    expect(server.received).toHaveLength(0);
  });

  it('sends each call with its method, path, query and body', async () => {
    const { server, client } = await setup((req, res) => {
      if (req.url.includes('/content')) {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '5' });
        res.end('bytes');
        return;
      }
      sendJson(res, 200, req.url.includes('public-url') && req.method === 'POST' ? { public_url: 'http://cdn/x' } : FILE);
    });
    expect((await listFiles(client, { limit: 2, order: 'asc', sort_by: 'size', filter: 'size_bytes > 10' })).ok).toBe(true);
    expect((await getFile(client, 'file/a1')).ok).toBe(true);
    expect((await updateFile(client, 'file_a1', { filename: 'new.txt', expires_after: null })).ok).toBe(true);
    expect((await deleteFile(client, 'file_a1')).ok).toBe(true);
    expect(await createPublicUrl(client, 'file_a1', { expiresAfter: 3600 })).toMatchObject({ ok: true, value: { public_url: 'http://cdn/x' } });
    expect((await createPublicUrl(client, 'file_a1')).ok).toBe(true);
    expect((await revokePublicUrl(client, 'file_a1')).ok).toBe(true);
    const dest = join(dir, 'out.txt');
    expect(await downloadFileContent(client, 'file_a1', dest, { format: 'original' })).toMatchObject({ ok: true, value: { path: dest, bytes: 5 } });
    expect(readFileSync(dest, 'utf8')).toBe('bytes');
    expect(server.received.map((r) => [r.method, r.url, r.body])).toEqual([
      ['GET', '/v1/files?limit=2&order=asc&sort_by=size&filter=size_bytes+%3E+10', ''],
      ['GET', '/v1/files/file%2Fa1', ''],
      ['PUT', '/v1/files/file_a1', '{"filename":"new.txt","expires_after":null}'],
      ['DELETE', '/v1/files/file_a1', ''],
      ['POST', '/v1/files/file_a1/public-url', '{"expires_after":3600}'],
      ['POST', '/v1/files/file_a1/public-url', '{}'],
      ['DELETE', '/v1/files/file_a1/public-url', ''],
      ['GET', '/v1/files/file_a1/content?format=original', ''],
    ]);
  });
});
