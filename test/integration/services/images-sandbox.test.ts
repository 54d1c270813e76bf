/**
 * ImagesService against the embedded sandbox's Images API, with the real client, store, blob
 * store and gallery: generations as URLs (fetched from the sandbox's media links, without the
 * key) and as base64, an edit of a picked file with a gallery item, the cost the sandbox charges,
 * and a Files id it does not have.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../../main/sandbox';
import { ConnectionsService } from '../../../main/services/connections-service';
import { GalleryService } from '../../../main/services/gallery-service';
import { HistoryService } from '../../../main/services/history-service';
import { ImagesService } from '../../../main/families/images/images-service';
import { MediaService } from '../../../main/services/media-service';
import { UserFiles } from '../../../main/services/user-files';
import { BlobStore } from '../../../main/store/blobs';
import { closeDatabase, openDatabase, type Db } from '../../../main/store/db';
import { createMemoryKeyStore } from '../../../main/store/key-store';
import { getRun } from '../../../main/store/runs';
import type { ImageRunChunk } from '../../../shared/families/images/contract';
import type { ImageResult } from '../../../shared/wire/images';
import { pngOf } from '../../unit/main/services/media-fixtures';

const KEY = 'sk-sandbox-images-integration';

describe('ImagesService against the sandbox', () => {
  let dir: string;
  let db: Db;
  let sandbox: SandboxServer;
  let connections: ConnectionsService;
  let userFiles: UserFiles;
  let gallery: GalleryService;
  let images: ImagesService;
  let history: HistoryService;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wb-images-sandbox-'));
    db = openDatabase(':memory:');
    sandbox = await startSandbox({ keys: [KEY], tokenDelayMs: 0 });
    connections = new ConnectionsService({ db, keyStore: createMemoryKeyStore(), sandbox: { url: sandbox.url, key: KEY, port: sandbox.port, preferredPort: sandbox.port, preferredSource: 'default' }, emit: () => {} });
    const blobs = new BlobStore(join(dir, 'blobs'));
    userFiles = new UserFiles({ stagingDir: join(dir, 'staging'), log: () => {} });
    const media = new MediaService(db, blobs, (hash) => ({ url: `/media/${hash}`, expiresAt: null }));
    gallery = new GalleryService({ db, blobs, media });
    history = new HistoryService(db, blobs, undefined, undefined, undefined, (hash) => media.url(hash));
    images = new ImagesService({ db, blobs, connections, gallery, userFiles });
  });
  afterAll(async () => {
    userFiles.dispose();
    await connections.dispose();
    await sandbox.close();
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  });

  const ctx = (chunks: ImageRunChunk[] = []) => ({ signal: new AbortController().signal, emit: (c: ImageRunChunk) => chunks.push(c) });
  const base = { model: 'svc-image-1', n: 1, resolution: '1k' as const };

  it('generates two 16:9 images as URLs and keeps both, at the size the ratio gives, with the sandbox’s cost', async () => {
    const result = await images.generate({ ...base, prompt: 'A red barn at night', n: 2, responseFormat: 'url', aspectRatio: '16:9' }, ctx());
    expect(result.images.map((i) => [i.mime, i.width, i.height, i.origin])).toEqual([
      ['image/jpeg', 1024, 576, 'generated'],
      ['image/jpeg', 1024, 576, 'generated'],
    ]);
    expect(result.images[0].hash).not.toBe(result.images[1].hash);
    const run = getRun(db, result.runId)!;
    const answer = run.response?.body as ImageResult;
    expect(answer.data.map((d) => d.url)).toEqual([expect.stringMatching(/\/media\/images\/.+\.jpg$/), expect.stringMatching(/\/media\/images\/.+\.jpg$/)]);
    expect(result.costTicks).toBeGreaterThan(0);
    expect(result.costTicks).toBe(answer.usage?.cost_in_usd_ticks);
    expect(run).toMatchObject({ status: 'completed', costTicks: result.costTicks, endpoint: 'images.generations' });
    expect(result.images.every((i) => i.revisedPrompt !== null)).toBe(true);
  });

  it('keeps a b64_json image: the same bytes as the URL form of the same request', async () => {
    const asUrl = await images.generate({ ...base, prompt: 'An ocean at dawn', responseFormat: 'url', aspectRatio: '1:1' }, ctx());
    const asB64 = await images.generate({ ...base, prompt: 'An ocean at dawn', responseFormat: 'b64_json', aspectRatio: '1:1' }, ctx());
    expect(asB64.images[0]).toMatchObject({ width: 1024, height: 1024, hash: asUrl.images[0].hash });
    expect(JSON.stringify(getRun(db, asB64.runId)!.response)).toContain('"$gallery"');
  });

  it('edits a picked file with an earlier gallery image; the inputs are kept and the result links back to them', async () => {
    const path = join(dir, 'square.png');
    writeFileSync(path, pngOf(300, 200, 2));
    const ref = (await userFiles.register(path)).ref;
    const earlier = (await images.generate({ ...base, prompt: 'a green hill', responseFormat: 'url', aspectRatio: '1:1' }, ctx())).images[0];
    const result = await images.edit({ ...base, prompt: 'Put <IMAGE_1> behind <IMAGE_0>', responseFormat: 'url', images: [{ kind: 'ref', ref }, { kind: 'gallery', id: earlier.id }], aspectRatio: '3:2' }, ctx());
    expect(result.inputs.map((i) => [i.origin, i.name, i.width, i.height])).toEqual([
      ['input', 'square.png', 300, 200],
      ['generated', earlier.name, 1024, 1024],
    ]);
    expect(result.images[0]).toMatchObject({ origin: 'edited', width: 1024, height: 680, sourceIds: [result.inputs[0].id, earlier.id] });
    expect(getRun(db, result.runId)).toMatchObject({ endpoint: 'images.edits', status: 'completed' });

    // Opened in History, the entry names its inputs by blob and URL: no base64 crosses the bridge.
    const opened = await history.get(result.runId);
    const payload = JSON.stringify(opened);
    expect(payload).not.toMatch(/base64/);
    expect(payload.length).toBeLessThan(10_000);
    expect(Object.keys(opened.media ?? {}).sort()).toEqual([result.inputs[0].hash, earlier.hash].sort());
    expect(opened.media?.[earlier.hash]).toEqual({ url: `/media/${earlier.hash}`, expiresAt: null, mime: 'image/jpeg', size: earlier.bytes });
    // Only a re-run asks for the bytes: the request as it was sent.
    const sent = JSON.stringify((await history.request(result.runId)).body);
    expect(sent.match(/data:image\/(png|jpeg);base64,/g)).toHaveLength(2);
  });

  it('explains a Files id the service does not have, naming the field', async () => {
    const failure = await images.edit({ ...base, prompt: 'edit it', responseFormat: 'url', images: [{ kind: 'file', fileId: 'file_doesnotexist' }] }, ctx()).catch((e: unknown) => e);
    expect(failure).toMatchObject({ error: { code: 'api_error', message: expect.stringContaining('image (file_doesnotexist): the service no longer has that file') } });
  });
});
