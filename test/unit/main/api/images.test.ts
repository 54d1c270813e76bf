import { afterEach, describe, expect, it } from 'vitest';
import { createImages, downloadImage } from '../../../../main/api/images';
import { useLocalClient } from './local-client';
import { sendJson, startServer, type LocalServer } from './local-server';

describe('api/images', () => {
  const setup = useLocalClient();

  describe('createImages()', () => {
    it('posts the JSON body to the generation or edit path and gives the Image result', async () => {
      const { client, server } = await setup((_req, res) => sendJson(res, 200, { data: [{ url: 'https://cdn/x.png' }], usage: { cost_in_usd_ticks: 7 } }));
      const result = await createImages(client, 'edit', { model: 'm', prompt: 'p', image: { url: 'https://x/y.png' } }, { headers: { 'x-trace': 't1' } });
      expect(result).toMatchObject({ ok: true, value: { data: [{ url: 'https://cdn/x.png' }], usage: { cost_in_usd_ticks: 7 } } });
      expect(server.received[0]).toMatchObject({ method: 'POST', url: '/v1/images/edits', headers: { 'x-trace': 't1', authorization: 'Bearer sk-test-key' } });
      expect(JSON.parse(server.received[0].body)).toEqual({ model: 'm', prompt: 'p', image: { url: 'https://x/y.png' } });
    });

    it('calls a 2xx without a data list a protocol error that shows what came', async () => {
      const { client } = await setup((_req, res) => sendJson(res, 200, { images: [] }));
      const result = await createImages(client, 'generate', { model: 'm', prompt: 'p' });
      expect(result).toMatchObject({ ok: false, error: { kind: 'protocol', message: 'The service answered without a list of images (data): {"images":[]}' } });
    });

    it('gives the service’s error with its status', async () => {
      const { client } = await setup((_req, res) => sendJson(res, 400, { code: 'Client specified an invalid argument', error: 'n must be at most 10' }));
      const result = await createImages(client, 'generate', { model: 'm', prompt: 'p', n: 11 });
      expect(result).toMatchObject({ ok: false, error: { kind: 'http', status: 400, message: expect.stringContaining('n must be at most 10') } });
    });
  });

  describe('downloadImage()', () => {
    let cdn: LocalServer | null = null;
    afterEach(async () => {
      await cdn?.close();
      cdn = null;
    });

    it('gets all the bytes without sending any key', async () => {
      const bytes = Buffer.from('0123456789'.repeat(1000));
      cdn = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(bytes.length) });
        res.end(bytes);
      });
      const progress: number[] = [];
      const result = await downloadImage(`${cdn.baseUrl}/img/1.png?sig=abc`, { maxBytes: 1 << 20, onProgress: (n) => progress.push(n) });
      expect(result).toMatchObject({ ok: true, value: { contentType: 'image/png' } });
      expect(result.ok && result.value.bytes.equals(bytes)).toBe(true);
      expect(progress.at(-1)).toBe(bytes.length);
      expect(cdn.received[0]).toMatchObject({ url: '/img/1.png?sig=abc' });
      expect(cdn.received[0].headers.authorization).toBeUndefined();
    });

    it('keeps nothing of a body cut short, and says how far it got', async () => {
      cdn = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': '5000' });
        res.write(Buffer.alloc(1000), () => res.destroy());
      });
      const result = await downloadImage(`${cdn.baseUrl}/a.png`, { maxBytes: 1 << 20 });
      expect(result).toMatchObject({ ok: false, error: { kind: 'network', message: expect.stringMatching(/^The image download broke after 1000 bytes of 4\.9 KiB \(.+\); nothing of it was kept\.$/) } });
    });

    it('refuses an image over the limit with the limit, and a URL that is not http(s)', async () => {
      cdn = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(Buffer.alloc(5000));
      });
      expect(await downloadImage(`${cdn.baseUrl}/big.png`, { maxBytes: 1024 })).toMatchObject({ ok: false, error: { code: 'too_large', message: 'The image is larger than the app accepts (over 1 KiB); nothing was kept.' } });
      expect(await downloadImage('file:///etc/passwd', { maxBytes: 1024 })).toMatchObject({ ok: false, error: { kind: 'protocol', message: expect.stringContaining('not an http(s) address') } });
    });

    it('gives the CDN’s error status (an expired link)', async () => {
      cdn = await startServer((_req, res) => sendJson(res, 403, { error: 'link expired' }));
      expect(await downloadImage(`${cdn.baseUrl}/old.png`, { maxBytes: 1024 })).toMatchObject({ ok: false, error: { kind: 'http', status: 403 } });
    });
  });
});
