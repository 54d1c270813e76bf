import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIN_BLOB_BYTES, rehydrate, rehydrateRequest, storeRequestMedia } from '../../../../main/services/request-media';
import { BlobStore } from '../../../../main/store/blobs';
import type { CapturedRequest } from '../../../../shared/contract/runs';

const PNG = randomBytes(5_000);
const JPEG = randomBytes(3_000);
const req = (body: unknown): CapturedRequest => ({ method: 'POST', url: 'http://127.0.0.1/v1/x', headers: {}, body });

describe('request-media', () => {
  let dir: string;
  let store: BlobStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'req-media-'));
    store = new BlobStore(join(dir, 'blobs'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe('storeRequestMedia()', () => {
    it('moves chat data URLs and Messages base64 sources to the store, leaving references, and rehydrates to the request as sent', async () => {
      const dataUrl = `data:image/png;base64,${PNG.toString('base64')}`;
      const sent = req({
        model: 'svc-4',
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'what is this' }, { type: 'image_url', image_url: { url: dataUrl, detail: 'high' } }] },
          { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: JPEG.toString('base64') } }] },
          { role: 'user', content: [{ type: 'image_url', image_url: { url: dataUrl } }] },
        ],
      });
      const { request, blobs } = await storeRequestMedia(store, sent);
      const json = JSON.stringify(request);
      expect(json.length).toBeLessThan(1_000);
      expect(blobs.map((b) => ({ mime: b.mime, size: b.size }))).toEqual([
        { mime: 'image/png', size: PNG.length },
        { mime: 'image/jpeg', size: JPEG.length },
      ]);
      const body = request.body as { messages: Array<{ content: Array<Record<string, any>> }> };
      expect(body.messages[0].content[1].image_url).toEqual({ url: { $blob: blobs[0].hash, mime: 'image/png', encoding: 'data-url' }, detail: 'high' });
      expect(body.messages[1].content[0].source).toEqual({ type: 'base64', media_type: 'image/jpeg', data: { $blob: blobs[1].hash, mime: 'image/jpeg', encoding: 'base64' } });
      expect(await store.has(blobs[0].hash)).toBe(true);
      expect(await rehydrateRequest(store, request)).toEqual(sent);
    });

    it('leaves small payloads, URLs and text that only looks like base64 as they were', async () => {
      const sent = req({
        input: [
          { type: 'input_image', image_url: `data:image/png;base64,${randomBytes(MIN_BLOB_BYTES - 10).toString('base64')}` },
          { type: 'input_image', image_url: 'https://example.com/cat.png' },
          { type: 'input_text', text: `data:text/plain;base64,${'not base64!'.repeat(200)}` },
        ],
      });
      expect(await storeRequestMedia(store, sent)).toEqual({ request: sent, blobs: [] });
    });
  });

  describe('rehydrate()', () => {
    it('keeps a reference whose blob is gone rather than inventing bytes', async () => {
      const ref = { $blob: 'e'.repeat(64), mime: 'image/png', encoding: 'data-url' };
      expect(await rehydrate(store, { url: ref })).toEqual({ url: ref });
    });
  });
});
