// A file's bytes from the page to main, over both transports (see harness.ts), the one way the app
// has: the page's upload (renderer/src/bridge/upload-bytes.ts) over `userFiles.upload` into the
// real handler (main/services/upload-session.ts) and UserFiles. Browser mode carries the slices as
// binary WebSocket frames. Byte for byte with progress; Cancel and a page that goes away leave
// nothing; main's refusals (over the size limit, a stall) reach the page as their own errors.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BYTES_PER_MESSAGE } from '../../../shared/contract/bytes';
import { WorkbenchFailure } from '../../../shared/contract/errors';
import { UserFiles } from '../../../main/services/user-files';
import { BLOB_SLICE_BYTES, uploadBytes } from '../../../renderer/src/bridge/upload-bytes';
import { UPLOAD_CHUNK_MAX_BYTES } from '../../../shared/contract/user-files';
import { ipcHarness, until, wsHarness, type Harness } from './harness';

vi.mock('electron', async () => ({ ipcMain: (await import('./fake-electron')).fakeIpcMain }));

const root = mkdtempSync(join(tmpdir(), 'wb-transport-uploads-'));
const stagingDir = join(root, 'staging');
const userFiles = new UserFiles({ stagingDir, log: () => {} });
const LIMIT = 8 * BYTES_PER_MESSAGE;
const uploads = { userFiles, limits: { maxBytes: LIMIT, stall: { timeoutMs: 300, minBytes: 1024 } } };
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

// Browser mode sends a File's slices unread (upload-bytes.ts `blobSlices`): each slice a Blob
// framed as the binary frame of its message (binary-frame.ts encodeBlobFrame), sent by the socket.
describe('uploads over the browser-mode WebSocket, slices sent as Blobs', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await wsHarness({ uploads });
  });
  afterEach(async () => {
    await h.close();
  });

  it('stages a file byte for byte at every slice boundary, one binary frame per 4 MiB slice', async () => {
    expect(BLOB_SLICE_BYTES).toBe(4 * BYTES_PER_MESSAGE);
    for (const size of [BLOB_SLICE_BYTES + 1, 2 * BLOB_SLICE_BYTES, BLOB_SLICE_BYTES - 1, 0]) {
      const bytes = randomBytes(size);
      const progress: number[] = [];
      const framesBefore = h.frames!.sent.filter((f) => f === 'binary').length;
      const ref = await uploadBytes(h.api, new File([bytes], 'sliced.bin'), (n) => progress.push(n), undefined, { blobSlices: true });
      expect(ref).toMatchObject({ name: 'sliced.bin', size });
      expect(readFileSync(userFiles.resolve(ref.ref).path).equals(bytes)).toBe(true);
      const slices = Math.ceil(size / BLOB_SLICE_BYTES);
      expect(h.frames!.sent.filter((f) => f === 'binary').length - framesBefore).toBe(slices);
      expect(progress).toEqual(Array.from({ length: slices }, (_, i) => Math.min((i + 1) * BLOB_SLICE_BYTES, size)));
      userFiles.release(ref.ref);
    }
  });

  it('a lost connection mid-upload reports an error and keeps nothing half-staged', async () => {
    const before = new Set(kept());
    let dropped = false;
    const running = uploadBytes(
      h.api,
      new File([new Uint8Array(LIMIT)], 'cut.bin'),
      (n) => {
        if (n >= BLOB_SLICE_BYTES && !dropped) {
          dropped = true;
          h.dropSocket!();
        }
      },
      undefined,
      { blobSlices: true },
    );
    const error = (await failure(running)).error;
    expect(dropped).toBe(true);
    expect(error.code).toBe('network');
    expect(error.message).toMatch(/Disconnected from the workbench process/);
    await until(() => parts().length === 0, 'the partial file to go with the socket');
    expect(kept().filter((f) => !before.has(f))).toEqual([]);
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
