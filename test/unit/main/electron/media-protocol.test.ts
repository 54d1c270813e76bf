import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addBlobRef } from '../../../../main/store/blob-rows';
import { BlobStore } from '../../../../main/store/blobs';
import { closeDatabase, openDatabase, type Db } from '../../../../main/store/db';
import { MediaService } from '../../../../main/services/media-service';

const electron = vi.hoisted(() => ({
  protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn(), unhandle: vi.fn() },
}));
vi.mock('electron', () => electron);

const { MEDIA_SCHEME, mediaUrlOf, setupMediaProtocol } = await import('../../../../main/electron/media-protocol');

const BYTES = randomBytes(4_096);
let root: string;
let db: Db;
let hash: string;
let handler: (r: Request) => Promise<Response>;
let dispose: () => void;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'wb-mproto-'));
  db = openDatabase(':memory:');
  const store = new BlobStore(join(root, 'blobs'));
  const info = await store.put(BYTES);
  hash = info.hash;
  addBlobRef(db, { ...info, mime: 'audio/wav' });
  dispose = setupMediaProtocol(new MediaService(db, store, mediaUrlOf));
  const [scheme, h] = electron.protocol.handle.mock.calls[0] as [string, (r: Request) => Promise<Response>];
  expect(scheme).toBe(MEDIA_SCHEME);
  handler = h;
});

afterAll(() => {
  closeDatabase(db);
  rmSync(root, { recursive: true, force: true });
});

const fetchMedia = (url: string, headers: Record<string, string> = {}, method = 'GET') => handler(new Request(url, { method, headers }));

describe('media-protocol', () => {
  it('addresses a blob as workbench-media://blob/<hash>, with no expiry', () => {
    expect(mediaUrlOf(hash)).toEqual({ url: `workbench-media://blob/${hash}`, expiresAt: null });
  });

  it('serves the whole blob with its type from the row', async () => {
    const res = await fetchMedia(mediaUrlOf(hash).url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await res.arrayBuffer()).equals(BYTES)).toBe(true);
  });

  it.each([
    ['bytes=0-9', 0, 9],
    ['bytes=4000-', 4000, 4095],
    ['bytes=-96', 4000, 4095],
  ])('answers %s with 206 and exactly those bytes', async (range, start, end) => {
    const res = await fetchMedia(mediaUrlOf(hash).url, { Range: range });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/4096`);
    expect(Buffer.from(await res.arrayBuffer()).equals(BYTES.subarray(start, end + 1))).toBe(true);
  });

  it('answers a range beyond the end with 416 and bytes */size', async () => {
    const res = await fetchMedia(mediaUrlOf(hash).url, { Range: 'bytes=5000-6000' });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe('bytes */4096');
  });

  it('answers 404 for a malformed name, another host and an unknown blob; 405 for other methods', async () => {
    expect((await fetchMedia(`workbench-media://blob/${hash.slice(1)}`)).status).toBe(404);
    expect((await fetchMedia('workbench-media://blob/../../etc/passwd')).status).toBe(404);
    expect((await fetchMedia(`workbench-media://other/${hash}`)).status).toBe(404);
    expect((await fetchMedia(`workbench-media://blob/${'d'.repeat(64)}`)).status).toBe(404);
    expect((await fetchMedia(mediaUrlOf(hash).url, {}, 'POST')).status).toBe(405);
  });

  it('stops serving when disposed', () => {
    dispose();
    expect(electron.protocol.unhandle).toHaveBeenCalledWith(MEDIA_SCHEME);
  });
});
