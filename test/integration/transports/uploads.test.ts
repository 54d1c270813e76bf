// A file's bytes from the page to main, over both transports (see harness.ts), the one way the app
// has: the page's upload (renderer/src/bridge/upload-bytes.ts) over `userFiles.upload` into the
// real handler (main/services/upload-session.ts) and UserFiles. Browser mode carries the slices as
// binary WebSocket frames. Byte for byte with progress; Cancel and a page that goes away leave
// nothing; main's refusals (over the size limit, a stall) reach the page as their own errors.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BYTES_PER_MESSAGE } from '../../../shared/contract/bytes';
import { WorkbenchFailure } from '../../../shared/contract/errors';
import { UserFiles } from '../../../main/services/user-files';
import { LANE_SLICE_BYTES, uploadBytes } from '../../../renderer/src/bridge/upload-bytes';
import { UPLOAD_CHUNK_MAX_BYTES } from '../../../shared/contract/user-files';
import { UploadLanes } from '../../../main/services/upload-lane';
import { createLanePoster } from '../../../renderer/src/bridge/upload-lane';
import { ipcHarness, until, wsHarness, type Harness } from './harness';

vi.mock('electron', async () => ({ ipcMain: (await import('./fake-electron')).fakeIpcMain }));

const root = mkdtempSync(join(tmpdir(), 'wb-transport-uploads-'));
const stagingDir = join(root, 'staging');
const userFiles = new UserFiles({ stagingDir, log: () => {} });
const LIMIT = 8 * BYTES_PER_MESSAGE;
const lanes = new UploadLanes();
const uploads = { userFiles, lanes, limits: { maxBytes: LIMIT, stall: { timeoutMs: 300, minBytes: 1024 } } };
const parts = () => readdirSync(stagingDir).filter((f) => f.endsWith('.part'));
const kept = () => readdirSync(stagingDir).filter((f) => f.endsWith('.bin'));

afterAll(() => {
  userFiles.dispose();
  rmSync(root, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<WorkbenchFailure> {
  const outcome = await promise.then(() => null, (err: unknown) => err);
  expect(outcome).toBeInstanceOf(WorkbenchFailure);
  return outcome as WorkbenchFailure;
}

describe.each([
  ['Electron IPC', () => ipcHarness({ uploads })],
  ['browser-mode WebSocket', () => wsHarness({ uploads })],
])('uploads over %s', (_name, makeHarness) => {
  let h: Harness;
  beforeEach(async () => {
    h = await makeHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('stages a file byte for byte in 1 MiB messages, progress rising to its size', async () => {
    const bytes = randomBytes(5 * BYTES_PER_MESSAGE + 321);
    const progress: number[] = [];
    const ref = await uploadBytes(h.api, new File([bytes], 'page made.bin', { type: 'application/octet-stream' }), (n) => progress.push(n));
    expect(ref).toMatchObject({ name: 'page made.bin', size: bytes.length, type: 'application/octet-stream' });
    expect(readFileSync(userFiles.resolve(ref.ref).path).equals(bytes)).toBe(true);
    expect(progress).toEqual([1, 2, 3, 4, 5].map((n) => n * BYTES_PER_MESSAGE).concat(bytes.length));
    if (h.frames) expect(h.frames.sent.filter((f) => f === 'binary')).toHaveLength(6);
    userFiles.release(ref.ref);
  });

  it('Cancel mid-upload rejects cancelled once the partial file is gone', async () => {
    const before = new Set(kept());
    const controller = new AbortController();
    let loaded = 0;
    const running = uploadBytes(h.api, new File([new Uint8Array(7 * BYTES_PER_MESSAGE)], 'big.bin'), (n) => {
      loaded = n;
      if (n >= 2 * BYTES_PER_MESSAGE) controller.abort();
    }, controller.signal);
    expect((await failure(running)).error).toEqual({ code: 'cancelled', message: 'The upload of "big.bin" was cancelled.' });
    expect(loaded).toBeLessThan(7 * BYTES_PER_MESSAGE);
    expect(parts()).toEqual([]);
    expect(kept().filter((f) => !before.has(f))).toEqual([]);
  });

  it('the page going away mid-upload removes the partial file', async () => {
    const file = { name: 'half.bin', type: '', size: 4 * BYTES_PER_MESSAGE, slice: (start = 0) => ({ arrayBuffer: async () => (start >= BYTES_PER_MESSAGE ? new Promise<ArrayBuffer>(() => {}) : new ArrayBuffer(BYTES_PER_MESSAGE)) }) };
    void uploadBytes(h.api, file, () => {}).catch(() => {});
    await until(() => parts().length === 1, 'the partial file');
    h.disconnect();
    await until(() => parts().length === 0, 'the partial file to go with the page');
  });

  it('main’s refusals reach the page as their own errors: over the limit, a stall', async () => {
    const tooBig = await failure(uploadBytes(h.api, { name: 'huge.iso', type: '', size: LIMIT + 1, slice: () => ({ arrayBuffer: async () => new ArrayBuffer(0) }) }, () => {}));
    expect(tooBig.error).toEqual({ code: 'invalid_input', message: '"huge.iso" (8.0 MiB) is larger than the 8.0 MiB upload limit.' });
    // A page that stops sending without closing (its tab froze): main stops waiting, and says so.
    const session = h.api.userFiles.upload({ name: 'stuck.bin', type: '', size: 3 * BYTES_PER_MESSAGE }, () => {});
    await session.send({ data: new Uint8Array(2048) });
    expect((await failure(session.result)).error).toEqual({
      code: 'timeout',
      message: 'The upload of "stuck.bin" stalled: less than 1 KiB arrived in 0 s, so it was stopped and nothing was kept. Check the connection and try again.',
    });
    expect(parts()).toEqual([]);
  });
});

describe.each([
  ['Electron IPC', () => ipcHarness({ uploads })],
  ['browser-mode WebSocket', () => wsHarness({ uploads })],
])('upload chunk size over %s', (_name, makeHarness) => {
  it('takes a chunk of UPLOAD_CHUNK_MAX_BYTES and refuses one byte more, saying the limit', async () => {
    const h = await makeHarness();
    try {
      const ok = h.api.userFiles.upload({ name: 'max.bin', type: '', size: UPLOAD_CHUNK_MAX_BYTES }, () => {});
      await ok.send({ data: new Uint8Array(UPLOAD_CHUNK_MAX_BYTES) });
      await ok.close();
      const ref = await ok.result;
      expect(ref.size).toBe(UPLOAD_CHUNK_MAX_BYTES);
      userFiles.release(ref.ref);
      const over = h.api.userFiles.upload({ name: 'over.bin', type: '', size: UPLOAD_CHUNK_MAX_BYTES + 1 }, () => {});
      over.result.catch(() => {});
      const refused = await failure(over.send({ data: new Uint8Array(UPLOAD_CHUNK_MAX_BYTES + 1) }));
      expect(refused.error.code).toBe('invalid_input');
      expect(refused.error.message).toContain('a chunk is at most 4 MiB');
      await over.cancel().catch(() => {});
      await until(() => parts().length === 0, 'the refused upload to leave nothing');
    } finally {
      await h.close();
    }
  });
});

// Browser mode's bytes lane (main/services/upload-lane.ts): the same session, its slices posted
// with fetch(body: Blob) to the loopback server (the page's own Origin and token), addressed by
// the ticket the session gave and the slice's index.
describe('uploads over the browser-mode bytes lane', () => {
  let h: Harness;
  let posts: number;
  const lanePoster = (headers: Record<string, string> = {}) =>
    createLanePoster({
      base: `http://127.0.0.1:${h.server!.port}`,
      token: () => h.server!.token,
      fetch: (url, init) => {
        posts++;
        return fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), Origin: h.server!.origin, ...headers }, duplex: 'half' } as RequestInit);
      },
    });
  beforeEach(async () => {
    posts = 0;
    h = await wsHarness({ uploads });
  });
  afterEach(async () => {
    await h.close();
  });

  it('stages a file byte for byte at every slice boundary, one POST per 4 MiB slice and no binary frame', async () => {
    for (const size of [LANE_SLICE_BYTES + 1, 2 * LANE_SLICE_BYTES, LANE_SLICE_BYTES - 1, 0]) {
      const bytes = randomBytes(size);
      const progress: number[] = [];
      const postsBefore = posts;
      const ref = await uploadBytes(h.api, new File([bytes], 'laned.bin'), (n) => progress.push(n), undefined, { lane: lanePoster() });
      expect(ref).toMatchObject({ name: 'laned.bin', size });
      expect(readFileSync(userFiles.resolve(ref.ref).path).equals(bytes)).toBe(true);
      const slices = Math.ceil(size / LANE_SLICE_BYTES);
      expect(posts - postsBefore).toBe(slices);
      expect(progress).toEqual(Array.from({ length: slices }, (_, i) => Math.min((i + 1) * LANE_SLICE_BYTES, size)));
      userFiles.release(ref.ref);
    }
    expect(h.frames!.sent.filter((f) => f === 'binary')).toEqual([]);
    expect(lanes.size).toBe(0);
  });

  it('Cancel mid-upload rejects cancelled once the partial file is gone, and the ticket with it', async () => {
    const before = new Set(kept());
    const controller = new AbortController();
    let loaded = 0;
    const running = uploadBytes(h.api, new File([new Uint8Array(LIMIT)], 'big.bin'), (n) => {
      loaded = n;
      controller.abort();
    }, controller.signal, { lane: lanePoster() });
    expect((await failure(running)).error).toEqual({ code: 'cancelled', message: 'The upload of "big.bin" was cancelled.' });
    expect(loaded).toBeLessThan(LIMIT);
    expect(parts()).toEqual([]);
    expect(kept().filter((f) => !before.has(f))).toEqual([]);
    await until(() => lanes.size === 0, 'the lane to close');
  });

  it('a connection lost mid-chunk reports an error and keeps nothing half-staged', async () => {
    const before = new Set(kept());
    const session = h.api.userFiles.upload({ name: 'cut.bin', type: '', size: 2 * LANE_SLICE_BYTES, lane: true }, (chunk) => tickets.push(chunk.lane));
    const tickets: string[] = [];
    session.result.catch(() => {});
    await until(() => tickets.length === 1, 'the lane ticket');
    // A raw request that announces 4 MiB, sends 1 MiB and drops its connection.
    const { request } = await import('node:http');
    const req = request({ host: '127.0.0.1', port: h.server!.port, method: 'POST', path: `/upload-lane/${tickets[0]}/0`, headers: { Authorization: `Bearer ${h.server!.token}`, Origin: h.server!.origin, 'Content-Length': String(LANE_SLICE_BYTES) } });
    req.on('error', () => {});
    req.write(new Uint8Array(BYTES_PER_MESSAGE));
    await until(() => parts().length === 1 && statSync(join(stagingDir, parts()[0]!)).size > 0, 'the first bytes on disk');
    req.destroy();
    const error = (await failure(session.result)).error;
    expect(error).toEqual({ code: 'network', message: `Chunk 0 of "cut.bin" was cut off after ${BYTES_PER_MESSAGE} of ${LANE_SLICE_BYTES} bytes; nothing was kept.` });
    expect(parts()).toEqual([]);
    expect(kept().filter((f) => !before.has(f))).toEqual([]);
    expect(lanes.size).toBe(0);
  });

  it('refuses a chunk over the size limit, out of order beyond the window, or sent twice, saying why', async () => {
    const tickets: string[] = [];
    const session = h.api.userFiles.upload({ name: 'limits.bin', type: '', size: 3 * BYTES_PER_MESSAGE, lane: true }, (chunk) => tickets.push(chunk.lane));
    session.result.catch(() => {});
    await until(() => tickets.length === 1, 'the lane ticket');
    const post = lanePoster();
    expect((await failure(post(tickets[0]!, 0, new Uint8Array(UPLOAD_CHUNK_MAX_BYTES + 1)))).error).toEqual({ code: 'invalid_input', message: `A chunk is at most 4 MiB; chunk 0 is ${UPLOAD_CHUNK_MAX_BYTES + 1} bytes.` });
    expect((await failure(post(tickets[0]!, 4, new Uint8Array(10)))).error).toEqual({ code: 'invalid_input', message: 'Chunk 4 of "limits.bin" is out of order: the upload takes chunks 0 to 3 now.' });
    await post(tickets[0]!, 0, new Uint8Array(BYTES_PER_MESSAGE));
    expect((await failure(post(tickets[0]!, 0, new Uint8Array(BYTES_PER_MESSAGE)))).error).toEqual({ code: 'invalid_input', message: 'Chunk 0 of "limits.bin" was already sent.' });
    // Out of order within the window waits for the one before it, then both are taken in order.
    const second = Buffer.alloc(BYTES_PER_MESSAGE, 2);
    const third = Buffer.alloc(BYTES_PER_MESSAGE, 3);
    const later = post(tickets[0]!, 2, third);
    await post(tickets[0]!, 1, second);
    await later;
    await session.close();
    const ref = await session.result;
    expect(readFileSync(userFiles.resolve(ref.ref).path).equals(Buffer.concat([Buffer.alloc(BYTES_PER_MESSAGE), second, third]))).toBe(true);
    userFiles.release(ref.ref);
    // The upload is over: its ticket addresses nothing now.
    expect((await failure(post(tickets[0]!, 3, new Uint8Array(1)))).error.code).toBe('not_found');
    const tooBig = await failure(uploadBytes(h.api, { name: 'huge.iso', type: '', size: LIMIT + 1, slice: () => ({ arrayBuffer: async () => new ArrayBuffer(0) }) }, () => {}, undefined, { lane: post }));
    expect(tooBig.error).toEqual({ code: 'invalid_input', message: '"huge.iso" (8.0 MiB) is larger than the 8.0 MiB upload limit.' });
  });

  it('refuses a chunk without the token, from another origin, or for another tab’s upload', async () => {
    const tickets: string[] = [];
    const session = h.api.userFiles.upload({ name: 'mine.bin', type: '', size: 10, lane: true }, (chunk) => tickets.push(chunk.lane));
    await until(() => tickets.length === 1, 'the lane ticket');
    const base = `http://127.0.0.1:${h.server!.port}/upload-lane/${tickets[0]}/0`;
    const noToken = await fetch(base, { method: 'POST', body: new Uint8Array(10), headers: { Origin: h.server!.origin } });
    expect(noToken.status).toBe(401);
    expect(await noToken.json()).toEqual({ error: { code: 'invalid_input', message: 'Unauthorized: the access token is missing or wrong.' } });
    const otherSite = await fetch(base, { method: 'POST', body: new Uint8Array(10), headers: { Origin: 'http://evil.example', Authorization: `Bearer ${h.server!.token}` } });
    expect(otherSite.status).toBe(403);
    expect(await otherSite.json()).toEqual({ error: { code: 'invalid_input', message: 'Forbidden: unexpected Origin.' } });
    // Another tab's upload (the second page): its own ticket is not this one, and addresses only its own.
    const theirs: string[] = [];
    const other = h.other.userFiles.upload({ name: 'theirs.bin', type: '', size: 10, lane: true }, (chunk) => theirs.push(chunk.lane));
    await until(() => theirs.length === 1, 'the other tab’s ticket');
    expect(theirs[0]).not.toBe(tickets[0]);
    // A made-up ticket (or one guessed from an op id) addresses nothing.
    const guessed = await fetch(`http://127.0.0.1:${h.server!.port}/upload-lane/${'A'.repeat(43)}/0`, { method: 'POST', body: new Uint8Array(10), headers: { Origin: h.server!.origin, Authorization: `Bearer ${h.server!.token}` } });
    expect(guessed.status).toBe(404);
    expect(((await guessed.json()) as { error: { code: string } }).error.code).toBe('not_found');
    // Nothing refused reached either upload: each still takes its own bytes.
    await lanePoster()(tickets[0]!, 0, Buffer.from('0123456789'));
    await lanePoster()(theirs[0]!, 0, Buffer.from('abcdefghij'));
    await Promise.all([session.close(), other.close()]);
    const [mine, their] = await Promise.all([session.result, other.result]);
    expect(readFileSync(userFiles.resolve(mine.ref).path, 'utf8')).toBe('0123456789');
    expect(readFileSync(userFiles.resolve(their.ref).path, 'utf8')).toBe('abcdefghij');
    userFiles.release(mine.ref);
    userFiles.release(their.ref);
  });
});
