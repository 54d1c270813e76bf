import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { downloadToFile, openRealFile, type OpenFileSink } from '../../../../main/api/download';
import { useLocalClient } from './local-client';
import { sendJson } from './local-server';

const setup = useLocalClient({ random: () => 0 });

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'iw-download-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const SIZE = 3_000_000;
const BYTES = Buffer.from(Array.from({ length: SIZE }, (_, i) => (i * 13 + (i >> 12)) % 256));

/** Writes `bytes` in 64 KB pieces with a Content-Length, cutting the connection after `cutAfter` bytes if given. */
function serveBytes(bytes: Buffer, cutAfter?: number) {
  return (_req: unknown, res: import('node:http').ServerResponse): void => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes.byteLength) });
    let pos = 0;
    const step = (): void => {
      if (cutAfter !== undefined && pos >= cutAfter) {
        // Cut once the client has had time to read what was written: cut at once, the bytes still
        // in flight are lost with the connection and the client saw less than `cutAfter` (986.5 KB
        // in a CI dry run), which is right of the client but not what this test is about.
        setTimeout(() => res.socket?.destroy(), 250);
        return;
      }
      if (pos >= bytes.byteLength) {
        res.end();
        return;
      }
      const next = Math.min(pos + 65536, bytes.byteLength);
      const ok = res.write(bytes.subarray(pos, next));
      pos = next;
      if (ok) setImmediate(step);
      else res.once('drain', step);
    };
    step();
  };
}

describe('downloadToFile', () => {
  it('saves the bytes exactly, with progress up to the total, and leaves no temporary file', async () => {
    const { server, client } = await setup(serveBytes(BYTES));
    const dest = join(dir, 'out.bin');
    const progress: Array<[number, number | null]> = [];
    const result = await downloadToFile(client, '/v1/files/file_1/content', dest, { onProgress: (r, t) => progress.push([r, t]) });
    expect(result).toMatchObject({ ok: true, value: { path: dest, bytes: SIZE }, meta: { status: 200 } });
    expect(readFileSync(dest).equals(BYTES)).toBe(true);
    expect(readdirSync(dir)).toEqual(['out.bin']);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toEqual([SIZE, SIZE]);
    expect(server.received[0]).toMatchObject({ method: 'GET', url: '/v1/files/file_1/content' });
  });

  it('a full disk leaves no file and no temporary file, and names the destination', async () => {
    const { client } = await setup(serveBytes(BYTES));
    const dest = join(dir, 'out.bin');
    let writes = 0;
    // A real temp file whose third write fails as a full disk would.
    const fullDisk: OpenFileSink = async (path) => {
      const real = await openRealFile(path);
      return {
        ...real,
        async write(chunk) {
          if (++writes === 3) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
          await real.write(chunk);
        },
      };
    };
    const result = await downloadToFile(client, '/v1/files/file_1/content', dest, { openSink: fullDisk });
    expect(writes).toBe(3);
    expect(result).toMatchObject({ ok: false, error: { kind: 'file', code: 'ENOSPC' } });
    if (!result.ok) expect(result.error.message).toBe(`The disk is full: ${dest} was not saved. Free some space and try again.`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a connection dropped mid-download leaves nothing and says how far it got', async () => {
    const { client } = await setup(serveBytes(BYTES, 1_048_576));
    const dest = join(dir, 'out.bin');
    const result = await downloadToFile(client, '/v1/files/file_1/content', dest);
    expect(result).toMatchObject({ ok: false, error: { kind: 'network' } });
    if (!result.ok) expect(result.error.message).toMatch(/^The connection dropped after (1 MiB|10[0-9][0-9](\.\d)? KiB) of 2\.9 MiB; nothing was saved\. Try again\.$/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a failed download leaves an existing file at the destination untouched', async () => {
    const { client } = await setup(serveBytes(BYTES, 500_000));
    const dest = join(dir, 'out.bin');
    writeFileSync(dest, 'the previous copy');
    const result = await downloadToFile(client, '/v1/files/file_1/content', dest);
    expect(result.ok).toBe(false);
    expect(readFileSync(dest, 'utf8')).toBe('the previous copy');
    expect(readdirSync(dir)).toEqual(['out.bin']);
  });

  it('a cancel mid-download leaves nothing', async () => {
    const { client } = await setup(serveBytes(BYTES));
    const dest = join(dir, 'out.bin');
    const controller = new AbortController();
    const result = await downloadToFile(client, '/v1/files/file_1/content', dest, {
      signal: controller.signal,
      onProgress: (received) => {
        if (received > 200_000) controller.abort();
      },
    });
    expect(result).toMatchObject({ ok: false, error: { kind: 'cancelled', message: `Cancelled: ${dest} was not saved.` } });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a 404 is the service error and creates nothing', async () => {
    const { client } = await setup((_req, res) => sendJson(res, 404, { code: 'not-found', error: 'file_9 not found' }));
    const dest = join(dir, 'out.bin');
    const result = await downloadToFile(client, '/v1/files/file_9/content', dest);
    expect(result).toMatchObject({ ok: false, error: { kind: 'http', status: 404 } });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a missing folder is a file error naming it', async () => {
    const { client } = await setup(serveBytes(BYTES));
    const dest = join(dir, 'nope', 'out.bin');
    const result = await downloadToFile(client, '/v1/files/file_1/content', dest);
    expect(result).toMatchObject({ ok: false, error: { kind: 'file', code: 'ENOENT' } });
    if (!result.ok) expect(result.error.message).toBe(`The folder ${join(dir, 'nope')} does not exist: ${dest} was not saved.`);
  });
});
