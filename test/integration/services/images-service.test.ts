/**
 * ImagesService with the real client, store, blob store and gallery, against a small fake of the
 * Images API (the sandbox's images routes are another branch's): generations as URLs and as
 * base64, edits from a picked file and a gallery item, cost and run recorded, a download that
 * breaks midway, the service's refusal of an expired Files id, and a cancel.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConnectionsService } from '../../../main/services/connections-service';
import { GalleryService } from '../../../main/services/gallery-service';
import { ImagesService } from '../../../main/families/images/images-service';
import { MediaService } from '../../../main/services/media-service';
import { UserFiles } from '../../../main/services/user-files';
import { getBlobRow } from '../../../main/store/blob-rows';
import { BlobStore } from '../../../main/store/blobs';
import { closeDatabase, openDatabase, type Db } from '../../../main/store/db';
import { createMemoryKeyStore } from '../../../main/store/key-store';
import { getRun } from '../../../main/store/runs';
import type { ImageRunChunk } from '../../../shared/families/images/contract';
import { TICKS_PER_CENT } from '../../../shared/cost';
import { sendJson, startServer, type LocalServer, type ReceivedRequest } from '../../unit/main/api/local-server';
import { jpegOf, pngOf } from '../../unit/main/services/media-fixtures';

const KEY = 'sk-images-integration-key';

/** The fake service: each produced image is a real PNG whose width is 64 + its index. */
function answer(server: () => LocalServer, req: ReceivedRequest, res: ServerResponse): void {
  if (req.method === 'GET' && req.url.startsWith('/cdn/')) {
    const m = /^\/cdn\/(\d+)(-broken)?\.png$/.exec(req.url);
    const png = pngOf(64 + Number(m?.[1] ?? 0), 48);
    if (m?.[2]) {
      // Half the image, then the connection drops.
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(png.length) });
      res.write(png.subarray(0, png.length >> 1), () => res.destroy());
      return;
    }
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(png.length) });
    res.end(png);
    return;
  }
  const body = JSON.parse(req.body || '{}') as Record<string, unknown>;
  if (String(body.prompt).includes('hang')) return; // never answers: the test cancels
  if (req.url === '/v1/images/edits' && JSON.stringify(body).includes('file_gone')) {
    sendJson(res, 404, { code: 'Some requested entity was not found', error: 'File file_gone not found' });
    return;
  }
  if (String(body.prompt).includes('refuse')) {
    sendJson(res, 400, { code: 'Client specified an invalid argument', error: 'prompt is longer than max_prompt_length (1024)' });
    return;
  }
  const n = Number(body.n ?? 1);
  const data = Array.from({ length: n }, (_, i) => {
    const broken = String(body.prompt).includes('break') && i === n - 1 ? '-broken' : '';
    return body.response_format === 'b64_json'
      ? { b64_json: pngOf(64 + i, 48).toString('base64'), mime_type: 'image/png', revised_prompt: `revised ${i}` }
      : { url: `${server().baseUrl}/cdn/${i}${broken}.png`, mime_type: 'image/png', revised_prompt: `revised ${i}` };
  });
  sendJson(res, 200, String(body.prompt).includes('no usage') ? { data } : { data, usage: { cost_in_usd_ticks: n * 7 * TICKS_PER_CENT } });
}

describe('ImagesService against a fake Images API', () => {
  let dir: string;
  let db: Db;
  let server: LocalServer;
  let blobs: BlobStore;
  let connections: ConnectionsService;
  let userFiles: UserFiles;
  let gallery: GalleryService;
  let images: ImagesService;
  let chunks: ImageRunChunk[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'images-service-'));
    db = openDatabase(':memory:');
    server = await startServer((req, res) => answer(() => server, req, res));
    const port = Number(new URL(server.baseUrl).port);
    connections = new ConnectionsService({ db, keyStore: createMemoryKeyStore(), sandbox: { url: server.baseUrl, key: KEY, port, preferredPort: port, preferredSource: 'default' }, emit: () => {} });
    blobs = new BlobStore(join(dir, 'blobs'));
    userFiles = new UserFiles({ stagingDir: join(dir, 'staging'), log: () => {} });
    gallery = new GalleryService({ db, blobs, media: new MediaService(db, blobs, (hash) => ({ url: `/media/${hash}`, expiresAt: null })) });
    images = new ImagesService({ db, blobs, connections, gallery, userFiles });
  });
  afterAll(async () => {
    userFiles.dispose();
    await connections.dispose();
    await server.close();
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    chunks = [];
  });

  const ctx = (signal: AbortSignal = new AbortController().signal) => ({ signal, emit: (c: ImageRunChunk) => chunks.push(c) });
  const base = { model: 'svc-image-1', n: 1, responseFormat: 'url' as const, resolution: '1k' as const };
  const posts = (): ReceivedRequest[] => server.received.filter((r) => r.method === 'POST');

  it('generates two images as URLs, downloads both (without the key) into the gallery and records the run with its cost', async () => {
    const result = await images.generate({ ...base, prompt: 'Two herons at dawn', n: 2, aspectRatio: '16:9' }, ctx());
    expect(JSON.parse(posts().at(-1)!.body)).toEqual({ model: 'svc-image-1', prompt: 'Two herons at dawn', n: 2, response_format: 'url', resolution: '1k', aspect_ratio: '16:9' });
    expect(result.images.map((i) => [i.origin, i.kind, i.mime, i.width, i.height, i.revisedPrompt, i.name])).toEqual([
      ['generated', 'image', 'image/png', 64, 48, 'revised 0', 'two-herons-at-dawn-1.png'],
      ['generated', 'image', 'image/png', 65, 48, 'revised 1', 'two-herons-at-dawn-2.png'],
    ]);
    expect(result.costTicks).toBe(14 * TICKS_PER_CENT);
    expect(chunks).toEqual([
      { type: 'started', runId: result.runId },
      { type: 'sent' },
      { type: 'downloading', done: 0, total: 2 },
      { type: 'downloading', done: 1, total: 2 },
      { type: 'downloading', done: 2, total: 2 },
    ]);
    const downloads = server.received.filter((r) => r.url.startsWith('/cdn/'));
    expect(downloads.map((r) => r.headers.authorization)).toEqual([undefined, undefined]);
    expect(posts().at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);

    const run = getRun(db, result.runId)!;
    expect(run).toMatchObject({ endpoint: 'images.generations', status: 'completed', model: 'svc-image-1', costTicks: 14 * TICKS_PER_CENT, promptPreview: 'Two herons at dawn', outputPreview: '2 images · 64×48' });
    expect(JSON.stringify(run.request)).not.toContain(KEY);
    expect(await images.ofRun({ runId: result.runId })).toEqual({ ...result, durationMs: run.timings.totalMs });
    expect((await gallery.ofRun(result.runId)).map((i) => i.id)).toEqual(result.images.map((i) => i.id));
  });

  it('shows the images kept so far to ofRun while the rest are still coming (a reload mid-request)', async () => {
    let midway: Promise<unknown> | null = null;
    const result = await images.generate({ ...base, prompt: 'four tiles', n: 4, aspectRatio: 'auto' }, {
      signal: new AbortController().signal,
      emit: (c) => {
        chunks.push(c);
        if (c.type === 'downloading' && c.done === 2) midway = images.ofRun({ runId: (chunks[0] as { runId: string }).runId });
      },
    });
    const seen = (await midway) as { images: Array<{ id: string }> } | null;
    expect(seen?.images.map((i) => i.id)).toEqual(result.images.slice(0, 2).map((i) => i.id));
  });

  it('keeps b64_json images and records a reference to the gallery item instead of the base64', async () => {
    const result = await images.generate({ ...base, prompt: 'A lighthouse', responseFormat: 'b64_json', aspectRatio: 'auto' }, ctx());
    expect(result.images).toHaveLength(1);
    const [item] = result.images;
    expect(item).toMatchObject({ width: 64, height: 48, mime: 'image/png' });
    const run = getRun(db, result.runId)!;
    expect(run.response?.body).toEqual({
      data: [{ b64_json: { $gallery: item.id, hash: item.hash, mime: 'image/png', bytes: item.bytes }, mime_type: 'image/png', revised_prompt: 'revised 0' }],
      usage: { cost_in_usd_ticks: 7 * TICKS_PER_CENT },
    });
    expect(JSON.stringify(run).length).toBeLessThan(4000);
  });

  it('edits several images (a picked file and a gallery item): sends images[] and aspect_ratio, keeps the inputs, links the result to them', async () => {
    const path = join(dir, 'me.png');
    const mine = pngOf(100, 80, 3);
    expect(mine.length).toBeGreaterThan(1024); // big enough to be moved out of the run's row
    writeFileSync(path, mine);
    const ref = (await userFiles.register(path)).ref;
    const earlier = await gallery.add({ data: jpegOf(20, 20), origin: 'generated', prompt: 'a hat' });
    const result = await images.edit({ ...base, prompt: 'Put <IMAGE_1> on <IMAGE_0>', images: [{ kind: 'ref', ref }, { kind: 'gallery', id: earlier.id }], aspectRatio: '1:1' }, ctx());

    const sent = JSON.parse(posts().at(-1)!.body) as Record<string, unknown>;
    expect(posts().at(-1)!.url).toBe('/v1/images/edits');
    expect(sent).toMatchObject({ prompt: 'Put <IMAGE_1> on <IMAGE_0>', aspect_ratio: '1:1', images: [{ url: `data:image/png;base64,${mine.toString('base64')}` }, { url: expect.stringMatching(/^data:image\/jpeg;base64,/) }] });
    expect(sent).not.toHaveProperty('image');
    expect(result.inputs.map((i) => [i.origin, i.name])).toEqual([
      ['input', 'me.png'],
      ['generated', 'a-hat.jpg'],
    ]);
    expect(result.images[0]).toMatchObject({ origin: 'edited', sourceIds: result.inputs.map((i) => i.id) });

    // The run holds references to the inputs' blobs, not their base64.
    const run = getRun(db, result.runId)!;
    expect(JSON.stringify(run.request)).not.toContain(mine.toString('base64').slice(0, 200));
    expect(getBlobRow(db, result.inputs[0].hash)!.refs).toBe(2); // the input item, and the run's request
    expect((await images.ofRun({ runId: result.runId }))?.inputs.map((i) => i.id)).toEqual(result.inputs.map((i) => i.id));
  });

  it('edits one image as `image`, never with aspect_ratio', async () => {
    const earlier = await gallery.add({ data: pngOf(12, 12, 9), origin: 'generated', prompt: 'a dot' });
    await images.edit({ ...base, prompt: 'make it blue', images: [{ kind: 'gallery', id: earlier.id }] }, ctx());
    const sent = JSON.parse(posts().at(-1)!.body) as Record<string, unknown>;
    expect(sent.image).toEqual({ url: expect.stringMatching(/^data:image\/png;base64,/) });
    expect(sent).not.toHaveProperty('images');
    expect(sent).not.toHaveProperty('aspect_ratio');
  });

  it('keeps the images that arrived when a download breaks midway, and says which one failed', async () => {
    const failure = await images.generate({ ...base, prompt: 'three boats, break the last', n: 3, aspectRatio: 'auto' }, ctx()).catch((e: unknown) => e);
    expect(failure).toMatchObject({ error: { code: 'stream_incomplete', message: expect.stringMatching(/^Could not keep image 3 of 3 \(.+\)\. The other 2 images are in the gallery\.$/) } });
    const runId = (chunks[0] as { runId: string }).runId;
    const kept = await images.ofRun({ runId });
    expect(kept?.images.map((i) => i.width)).toEqual([64, 65]);
    expect(getRun(db, runId)).toMatchObject({ status: 'incomplete', outputPreview: '2 images · 64×48 · 1 not kept', costTicks: 21 * TICKS_PER_CENT });
    expect((await gallery.list({ query: 'boats' })).total).toBe(2);
  });

  it('prices an answer without usage from the catalogue’s image_price (cents per image)', async () => {
    const priced = new ImagesService({ db, blobs, connections, gallery, userFiles, models: { cachedEntry: (_client, model) => (model === 'svc-image-1' ? ({ prices: { image_price: 5 } } as never) : undefined) } });
    const result = await priced.generate({ ...base, prompt: 'no usage here', n: 3, aspectRatio: 'auto' }, ctx());
    expect(result.costTicks).toBe(15 * TICKS_PER_CENT);
    expect(getRun(db, result.runId)?.costTicks).toBe(15 * TICKS_PER_CENT);
    const unpriced = await images.generate({ ...base, prompt: 'no usage again', aspectRatio: 'auto' }, ctx());
    expect(unpriced.costTicks).toBeNull();
  });

  it('records the service’s refusal as a failed run with its words', async () => {
    const failure = await images.generate({ ...base, prompt: 'refuse this one', aspectRatio: 'auto' }, ctx()).catch((e: unknown) => e);
    expect(failure).toMatchObject({ error: { code: 'api_error', status: 400, message: expect.stringContaining('max_prompt_length') } });
    const runId = (chunks[0] as { runId: string }).runId;
    expect(getRun(db, runId)).toMatchObject({ status: 'error', error: { status: 400 }, response: { status: 400 } });
  });

  it('explains the service’s 404 for a Files id it no longer has, naming the field', async () => {
    const failure = await images.edit({ ...base, prompt: 'edit the old one', images: [{ kind: 'file', fileId: 'file_gone' }] }, ctx()).catch((e: unknown) => e);
    expect(failure).toMatchObject({
      error: { status: 404, message: expect.stringContaining('image (file_gone): the service no longer has that file (it expired or was deleted)'), issues: [{ path: 'image' }] },
    });
  });

  it('refuses an input of the wrong type before anything is sent or recorded', async () => {
    const before = posts().length;
    const failure = await images.edit({ ...base, prompt: 'x', images: [{ kind: 'url', url: `data:image/png;base64,${Buffer.from('GIF89a....').toString('base64')}` }] }, ctx()).catch((e: unknown) => e);
    expect(failure).toMatchObject({ error: { code: 'invalid_input', message: 'image: That file is a GIF; edits take JPEG, PNG or WebP.' } });
    expect(posts().length).toBe(before);
    expect(chunks).toEqual([]);
  });

  it('cancels a request the service has not answered: the run is recorded cancelled', async () => {
    const controller = new AbortController();
    const pending = images.generate({ ...base, prompt: 'hang forever', aspectRatio: 'auto' }, { signal: controller.signal, emit: (c) => {
      chunks.push(c);
      if (c.type === 'sent') setTimeout(() => controller.abort(), 50);
    } });
    await expect(pending).rejects.toMatchObject({ error: { code: 'cancelled' } });
    const runId = (chunks[0] as { runId: string }).runId;
    expect(getRun(db, runId)).toMatchObject({ status: 'cancelled', error: null });
  });
});
