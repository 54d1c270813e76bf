import { mkdtempSync, rmSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../../main/api/client';
import { multipartBody } from '../../../../main/api/multipart';
import { useLocalClient } from './local-client';
import { sendJson } from './local-server';

const setup = useLocalClient({ random: () => 0 });

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'iw-multipart-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A file of varied bytes (not zeros, so a misplaced chunk would show). */
function fileOf(name: string, size: number): { path: string; bytes: Buffer } {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + (i >> 10)) % 251;
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return { path, bytes };
}

interface Part {
  headers: Record<string, string>;
  body: Buffer;
}

/** A strict multipart parser for what the server got: every delimiter, header and CRLF must be where RFC 7578 puts it. */
function parseMultipart(raw: Buffer, contentType: string): Part[] {
  const boundary = /boundary=(.+)$/.exec(contentType)?.[1];
  if (!boundary) throw new Error('no boundary');
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Part[] = [];
  let pos = 0;
  expect(raw.subarray(0, delimiter.length).equals(delimiter)).toBe(true);
  for (;;) {
    pos += delimiter.length;
    const after = raw.subarray(pos, pos + 2).toString();
    if (after === '--') {
      expect(raw.subarray(pos + 2).toString()).toBe('\r\n');
      return parts;
    }
    expect(after).toBe('\r\n');
    pos += 2;
    const headEnd = raw.indexOf('\r\n\r\n', pos);
    const headers: Record<string, string> = {};
    for (const line of raw.subarray(pos, headEnd).toString().split('\r\n')) {
      const i = line.indexOf(':');
      headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
    }
    const next = raw.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headEnd + 4);
    parts.push({ headers, body: raw.subarray(headEnd + 4, next) });
    pos = next + 2;
  }
}

describe('multipart', () => {
  it('sends the fields in order before the file, byte-exact, with an exact Content-Length; progress reaches the total', async () => {
    const { server, client } = await setup((_req, res) => sendJson(res, 200, { id: 'file_1' }));
    const file = fileOf('report "final".bin', 1_234_567);
    const progress: Array<[number, number]> = [];
    const built = await multipartBody(
      [
        { name: 'expires_after', value: '3600' },
        { name: 'purpose', value: 'assistants' },
      ],
      { path: file.path, filename: 'report "final".bin', contentType: 'application/pdf' },
      { onProgress: (s, t) => progress.push([s, t]) },
    );
    if (!built.ok) throw new Error(built.error.message);
    const result = await client.json({ method: 'POST', path: '/v1/files', body: built.body });
    expect(result.ok).toBe(true);

    const got = server.received[0];
    const contentType = String(got.headers['content-type']);
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(got.headers['transfer-encoding']).toBeUndefined();
    expect(Number(got.headers['content-length'])).toBe(got.raw.byteLength);
    expect(built.body.length).toBe(got.raw.byteLength);

    const parts = parseMultipart(got.raw, contentType);
    expect(parts.map((p) => p.headers['content-disposition'])).toEqual([
      'form-data; name="expires_after"',
      'form-data; name="purpose"',
      'form-data; name="file"; filename="report %22final%22.bin"',
    ]);
    expect(parts[0].body.toString()).toBe('3600');
    expect(parts[1].body.toString()).toBe('assistants');
    expect(parts[2].headers['content-type']).toBe('application/pdf');
    expect(parts[2].body.equals(file.bytes)).toBe(true);

    expect(progress.at(-1)).toEqual([got.raw.byteLength, got.raw.byteLength]);
    // Progress moves in steps of at most 1 MiB (not one per 4 MiB read), so a slow link shows it moving.
    const steps = progress.slice(1).map(([sent], i) => sent - progress[i]![0]);
    expect(Math.max(...steps)).toBeLessThanOrEqual(1024 * 1024);
    expect(result.captured.body).toEqual({
      multipart: [
        { name: 'expires_after', value: '3600' },
        { name: 'purpose', value: 'assistants' },
        { name: 'file', filename: 'report "final".bin', contentType: 'application/pdf', bytes: 1_234_567 },
      ],
    });
  });

  it('sends a file many read buffers long byte-exact (the buffers that take turns are never overwritten in flight)', async () => {
    const { server, client } = await setup((_req, res) => sendJson(res, 200, { id: 'file_2' }));
    // 9.5 MiB of a pattern that differs per MiB: a buffer filled again too early would show.
    const file = fileOf('long.bin', 9_961_472 + 12_345);
    const built = await multipartBody([], { path: file.path, filename: 'long.bin', contentType: 'application/octet-stream' });
    if (!built.ok) throw new Error(built.error.message);
    expect((await client.json({ method: 'POST', path: '/v1/files', body: built.body })).ok).toBe(true);
    const got = server.received[0];
    const parts = parseMultipart(got.raw, String(got.headers['content-type']));
    expect(parts[0].body.byteLength).toBe(file.bytes.byteLength);
    expect(parts[0].body.equals(file.bytes)).toBe(true);
  });

  it('is an error value before any request when the file is missing or a folder', async () => {
    const missing = await multipartBody([], { path: join(dir, 'gone.txt'), filename: 'gone.txt', contentType: 'text/plain' });
    expect(missing).toMatchObject({ ok: false, error: { kind: 'file', code: 'ENOENT' } });
    if (!missing.ok) expect(missing.error.message).toBe('Could not read gone.txt (it does not exist). Nothing was uploaded.');
    const folder = await multipartBody([], { path: dir, filename: 'x', contentType: 'text/plain' });
    expect(folder).toMatchObject({ ok: false, error: { kind: 'file', code: 'EISDIR' } });
  });

  it('reports a file that vanished between building and sending', async () => {
    const { server, client } = await setup((_req, res) => sendJson(res, 200, {}));
    const file = fileOf('brief.txt', 1000);
    const built = await multipartBody([], { path: file.path, filename: 'brief.txt', contentType: 'text/plain' });
    if (!built.ok) throw new Error(built.error.message);
    unlinkSync(file.path);
    const result = await client.json({ method: 'POST', path: '/v1/files', body: built.body });
    expect(result).toMatchObject({ ok: false, error: { kind: 'file' }, retries: 0 });
    if (!result.ok) expect(result.error.message).toBe('Could not read brief.txt while sending it (it no longer exists). Nothing was uploaded.');
    // The server saw at most a cut request, never a complete one.
    expect(server.received).toHaveLength(0);
  });
});

/** A server that counts what arrives and never keeps it; `onData` may cut the connection. */
async function countingServer(onData?: (received: number, destroy: () => void) => void): Promise<{
  baseUrl: string;
  received: () => number;
  requests: () => number;
  socketClosed: Promise<void>;
  close: () => Promise<void>;
}> {
  let received = 0;
  let requests = 0;
  let closedResolve: () => void = () => undefined;
  const socketClosed = new Promise<void>((resolve) => (closedResolve = resolve));
  const server: Server = createServer((req, res) => {
    requests++;
    req.socket.once('close', closedResolve);
    req.on('data', (c: Buffer) => {
      received += c.byteLength;
      onData?.(received, () => req.socket.destroy());
    });
    req.on('end', () => sendJson(res, 200, { id: 'file_x', bytes: received }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => received,
    requests: () => requests,
    socketClosed,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describe('multipart uploads in flight', () => {
  let client: ApiClient | null = null;
  afterEach(async () => {
    await client?.dispose();
    client = null;
  });

  it('an abort mid-upload stops sending: the socket is closed and the result is cancelled', async () => {
    const server = await countingServer();
    client = new ApiClient({ baseUrl: server.baseUrl, apiKey: 'k' });
    const path = join(dir, 'big.bin');
    writeFileSync(path, '');
    truncateSync(path, 64 * 1024 * 1024);
    const controller = new AbortController();
    const built = await multipartBody([], { path, filename: 'big.bin', contentType: 'application/octet-stream' }, {
      onProgress: (sent) => {
        if (sent > 2 * 1024 * 1024) controller.abort();
      },
    });
    if (!built.ok) throw new Error(built.error.message);
    const result = await client.json({ method: 'POST', path: '/v1/files', body: built.body, signal: controller.signal });
    expect(result).toMatchObject({ ok: false, error: { kind: 'cancelled' }, retries: 0 });
    await server.socketClosed;
    expect(server.received()).toBeLessThan(32 * 1024 * 1024);
    expect(server.requests()).toBe(1);
    await server.close();
  });

  it('a connection dropped mid-upload is a network error that says so, and is not retried', async () => {
    const server = await countingServer((received, destroy) => {
      if (received > 1024 * 1024) destroy();
    });
    client = new ApiClient({ baseUrl: server.baseUrl, apiKey: 'k', sleep: async () => undefined });
    const path = join(dir, 'big.bin');
    writeFileSync(path, '');
    truncateSync(path, 16 * 1024 * 1024);
    const built = await multipartBody([], { path, filename: 'big.bin', contentType: 'application/octet-stream' });
    if (!built.ok) throw new Error(built.error.message);
    const result = await client.json({ method: 'POST', path: '/v1/files', body: built.body });
    expect(result).toMatchObject({ ok: false, error: { kind: 'network' }, retries: 0 });
    if (!result.ok) expect(result.error.message).toMatch(/^The connection to 127\.0\.0\.1:\d+ dropped while sending big\.bin, after [\d.]+ (KiB|MiB) of 16 MiB; the upload did not finish\. Try again\.$/);
    expect(server.requests()).toBe(1);
    await server.close();
  });

  it('memory stays flat: a 200 MB upload grows the RSS by far less than the file', async () => {
    const server = await countingServer();
    client = new ApiClient({ baseUrl: server.baseUrl, apiKey: 'k' });
    const size = 200 * 1024 * 1024;
    const path = join(dir, 'huge.bin');
    writeFileSync(path, '');
    truncateSync(path, size);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sample = (): void => {
      peak = Math.max(peak, process.memoryUsage().rss);
    };
    const timer = setInterval(sample, 10);
    const built = await multipartBody([], { path, filename: 'huge.bin', contentType: 'application/octet-stream' }, { onProgress: sample });
    if (!built.ok) throw new Error(built.error.message);
    const result = await client.json<{ bytes: number }>({ method: 'POST', path: '/v1/files', body: built.body });
    clearInterval(timer);
    sample();
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value.bytes).toBe(built.body.length);
    expect(server.received()).toBeGreaterThan(size);
    // A behaviour bound, not a timing: holding the file would add 200 MB.
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
    await server.close();
  }, 60_000);
});
