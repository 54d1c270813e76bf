import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { StreamBody } from '../../../../main/api/stream-body';
import { useLocalClient } from './local-client';
import { sendJson } from './local-server';

const setup = useLocalClient({ random: () => 0 });

/** 300 KB of varied bytes, so a reordered or repeated chunk would show. */
const BYTES = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7 + (i >> 8)) % 256));

function bodyOf(bytes: Buffer, extra: Partial<StreamBody> = {}): StreamBody & { opened: number } {
  const body = {
    kind: 'stream' as const,
    opened: 0,
    open(): Readable {
      body.opened++;
      // Several chunks, like a file read.
      const chunks = [bytes.subarray(0, 100_000), bytes.subarray(100_000, 250_000), bytes.subarray(250_000)];
      return Readable.from(chunks);
    },
    length: bytes.byteLength,
    contentType: 'application/octet-stream',
    ...extra,
  };
  return body;
}

describe('stream-body', () => {
  it.each(['PUT', 'PATCH'] as const)('sends %s with a JSON body and reads the answer', async (method) => {
    const { server, client } = await setup((_req, res) => sendJson(res, 200, { id: 'x', updated: true }));
    const result = await client.json({ method, path: '/v1/files/x', body: { filename: 'a.txt' } });
    expect(result).toMatchObject({ ok: true, value: { id: 'x', updated: true }, captured: { method, body: { filename: 'a.txt' } } });
    expect(server.received[0]).toMatchObject({ method, url: '/v1/files/x', body: '{"filename":"a.txt"}' });
    expect(server.received[0].headers['content-type']).toBe('application/json');
  });

  it('streams the body with an exact Content-Length and records a description, not the bytes', async () => {
    const { server, client } = await setup((_req, res) => sendJson(res, 200, {}));
    const progress: Array<[number, number | null]> = [];
    const body = bodyOf(BYTES, { description: { upload: 'blob.bin' }, onProgress: (s, t) => progress.push([s, t]) });
    const result = await client.json({ method: 'PUT', path: '/v1/blobs/1', body });
    expect(result.ok).toBe(true);
    expect(result.captured.body).toEqual({ upload: 'blob.bin' });
    expect(result.captured.headers['content-length']).toBe('300000');
    const got = server.received[0];
    expect(got.headers['content-length']).toBe('300000');
    expect(got.headers['transfer-encoding']).toBeUndefined();
    expect(got.raw.equals(BYTES)).toBe(true);
    expect(progress.at(-1)).toEqual([300_000, 300_000]);
    expect(progress.map(([s]) => s)).toEqual([...progress.map(([s]) => s)].sort((a, b) => a - b));
  });

  it('re-opens the body for a retry after a 503: the service gets the whole body twice, identical', async () => {
    const { server, client, sleeps } = await setup((_req, res, n) =>
      n === 0 ? sendJson(res, 503, { code: 'unavailable', error: 'busy' }) : sendJson(res, 200, { ok: 1 }),
    );
    const body = bodyOf(BYTES);
    const retries: number[] = [];
    const result = await client.json({ method: 'POST', path: '/v1/files', body, onRetry: (i) => retries.push(i.attempt) });
    expect(result).toMatchObject({ ok: true, value: { ok: 1 }, retries: 1 });
    expect(body.opened).toBe(2);
    expect(retries).toEqual([1]);
    expect(sleeps).toHaveLength(1);
    expect(server.received).toHaveLength(2);
    expect(server.received[0].raw.equals(BYTES)).toBe(true);
    expect(server.received[1].raw.equals(BYTES)).toBe(true);
  });

  it.each([400, 409, 429])('does not retry a stream body after a %i (a 4xx is final)', async (status) => {
    const { server, client } = await setup((_req, res) => sendJson(res, status, { code: 'x', error: 'no' }));
    const body = bodyOf(BYTES);
    const result = await client.json({ method: 'POST', path: '/v1/files', body });
    expect(result).toMatchObject({ ok: false, error: { kind: 'http', status }, retries: 0 });
    expect(body.opened).toBe(1);
    expect(server.received).toHaveLength(1);
  });

  it('says when the body source fails while sending (a file error, not a network one)', async () => {
    const { client } = await setup((_req, res) => sendJson(res, 200, {}));
    const body: StreamBody = {
      kind: 'stream',
      label: 'notes.txt',
      contentType: 'text/plain',
      length: 10,
      open: () =>
        Readable.from(
          (async function* () {
            yield Buffer.from('12345');
            throw Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' });
          })(),
        ),
    };
    const result = await client.json({ method: 'POST', path: '/v1/files', body });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ kind: 'file', code: 'ENOENT' });
    expect(result.error.message).toBe('Could not read notes.txt while sending it (it no longer exists). Nothing was uploaded.');
  });

  it('a connection cut after the whole body left, before any answer, says the outcome is unknown', async () => {
    const { server, client } = await setup((_req, res) => void res.socket?.destroy());
    const result = await client.json({ method: 'POST', path: '/v1/files', body: bodyOf(BYTES, { label: 'blob.bin' }) });
    expect(result).toMatchObject({ ok: false, error: { kind: 'network' }, retries: 0 });
    if (!result.ok) {
      expect(result.error.message).toMatch(
        /^The connection to 127\.0\.0\.1:\d+ dropped after all of blob\.bin was sent, before the service answered; it may or may not have been stored\. Check before trying again\.$/,
      );
    }
    expect(server.received).toHaveLength(1);
  });

  it('says so when the body is shorter than its announced length', async () => {
    const { client } = await setup((_req, res) => sendJson(res, 200, {}));
    const result = await client.json({ method: 'POST', path: '/v1/files', body: bodyOf(BYTES, { length: 400_000, label: 'big.bin' }) });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toBe('big.bin changed size while it was being sent (expected 390.6 KiB). Nothing was uploaded; try again.');
  });
});
