/**
 * POST /v1/images/edits: the output derives from its inputs (a red input gives a reddish edit),
 * keeps the input's aspect ratio, takes several references (a collage), and reads inputs from
 * data URLs, uploaded files, the sandbox's own URLs, other http URLs and multipart file parts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import jpeg from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeJpeg, encodePng } from '../../../../../main/sandbox/media/image-codec';
import { KEY, OTHER_KEY, useHarness } from '../harness';
import { BOUNDARY, multipart, uploadFile, type FormPart } from './files-form';

const h = useHarness();

type Rgb = [number, number, number];

function solid(width: number, height: number, rgb: Rgb): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set([...rgb, 255], i);
  return data;
}
const png = (w: number, h: number, rgb: Rgb) => Buffer.from(encodePng(solid(w, h, rgb), w, h));
const dataUrl = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`;

interface Result {
  data: Array<{ url?: string; b64_json?: string; mime_type: string; revised_prompt: string }>;
  usage: { cost_in_usd_ticks: number };
}

async function edit(body: Record<string, unknown>): Promise<Result> {
  const res = await h.post('/v1/images/edits', { prompt: 'Add a few circles', response_format: 'b64_json', ...body });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Result;
}

function decoded(result: Result, i = 0) {
  return jpeg.decode(Buffer.from(result.data[i].b64_json as string, 'base64'), { useTArray: true });
}

/** Mean colour of a rectangle of a decoded image (whole image by default). */
function meanColour(img: { width: number; height: number; data: Uint8Array }, x0 = 0, x1 = img.width, y0 = 0, y1 = img.height): Rgb {
  const sum = [0, 0, 0];
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const o = (y * img.width + x) * 4;
      for (let k = 0; k < 3; k++) sum[k] += img.data[o + k];
    }
  }
  const n = (x1 - x0) * (y1 - y0);
  return sum.map((s) => s / n) as Rgb;
}

describe('sandbox/routes/images: edits', () => {
  it('derives from the input: a red input gives a reddish edit, a blue one a bluish edit', async () => {
    const red = meanColour(decoded(await edit({ image: { url: dataUrl(png(64, 64, [220, 20, 20])) } })));
    const blue = meanColour(decoded(await edit({ image: { url: dataUrl(png(64, 64, [20, 20, 220])) } })));
    expect(red[0]).toBeGreaterThan(red[2] + 60);
    expect(blue[2]).toBeGreaterThan(blue[0] + 60);
  });

  it('changes the input visibly and deterministically', async () => {
    const body = { image: { url: dataUrl(png(64, 64, [128, 128, 128])) }, prompt: 'Tint it orange' };
    const a = await edit(body);
    const b = await edit(body);
    expect(a.data[0].b64_json).toBe(b.data[0].b64_json);
    const img = decoded(a);
    // A grey input comes back orange-tinted (the tint), darker at the corners (the vignette).
    const centre = meanColour(img, 400, 600, 400, 600);
    expect(centre[0]).toBeGreaterThan(centre[2] + 20);
    expect(meanColour(img, 0, 40, 0, 40)[1]).toBeLessThan(centre[1] - 10);
    const other = await edit({ ...body, prompt: 'Tint it green' });
    expect(other.data[0].b64_json).not.toBe(a.data[0].b64_json);
    expect(a.data[0].revised_prompt).toMatch(/^Tint it orange\. Keeping the layout and colours of the reference image, /);
  });

  it("keeps the input's aspect ratio (auto) at the asked resolution", async () => {
    const portrait = decoded(await edit({ image: { url: dataUrl(png(90, 160, [0, 128, 0])) } }));
    expect([portrait.width, portrait.height]).toEqual([576, 1024]);
    const wide2k = decoded(await edit({ image: { url: dataUrl(png(160, 90, [0, 128, 0])) }, resolution: '2k' }));
    expect([wide2k.width, wide2k.height]).toEqual([2048, 1152]);
  });

  it('accepts the spec form {url, type: "image_url"}, the image_url alias and JPEG inputs', async () => {
    const jpg = Buffer.from(encodeJpeg(solid(32, 32, [200, 40, 40]), 32, 32, 90));
    expect(decoded(await edit({ image: { url: dataUrl(jpg, 'image/jpeg'), type: 'image_url' } })).width).toBe(1024);
    expect(decoded(await edit({ image: { image_url: dataUrl(jpg, 'image/jpeg') } })).width).toBe(1024);
  });

  it('sniffs the real type: a PNG declared as JPEG is fine', async () => {
    expect(decoded(await edit({ image: { url: dataUrl(png(8, 8, [1, 2, 3]), 'image/jpeg') } })).width).toBe(1024);
  });

  it('accepts WebP by its header (a stand-in picture of the right ratio)', async () => {
    const webp = Buffer.alloc(40);
    webp.write('RIFF', 0);
    webp.write('WEBPVP8L', 8);
    webp[20] = 0x2f;
    const bits = (300 - 1) | ((600 - 1) << 14);
    webp.writeUInt32LE(bits >>> 0, 21);
    const out = decoded(await edit({ image: { url: dataUrl(webp, 'image/webp') } }));
    expect([out.width, out.height]).toEqual([512, 1024]);
  });

  it('makes a collage of several references, each in its own strip, at the asked aspect ratio', async () => {
    const colours: Rgb[] = [
      [230, 20, 20],
      [20, 200, 20],
      [20, 20, 230],
    ];
    const result = await edit({
      images: colours.map((c) => ({ url: dataUrl(png(40, 40, c)) })),
      prompt: 'Blend <IMAGE_0>, <IMAGE_1> and <IMAGE_2>',
      aspect_ratio: '3:2',
      n: 2,
    });
    expect(result.data).toHaveLength(2);
    expect(result.usage.cost_in_usd_ticks).toBe(1_400_000_000);
    const img = decoded(result);
    expect([img.width, img.height]).toEqual([1024, 680]);
    // Each third (away from the seams and the vignette) is dominated by its reference's colour.
    const third = img.width / 3;
    for (let i = 0; i < 3; i++) {
      const mean = meanColour(img, Math.round(i * third + 60), Math.round((i + 1) * third - 60), 200, 480);
      const strongest = mean.indexOf(Math.max(...mean));
      expect(strongest, `strip ${i}: ${mean.map(Math.round).join(',')}`).toBe(i);
    }
  });

  it('reads an uploaded file by file_id, and refuses another team\'s or a deleted one', async () => {
    const file = await uploadFile(h, 'input.png', png(50, 100, [200, 30, 30]));
    const out = decoded(await edit({ image: { file_id: file.id } }));
    expect([out.width, out.height]).toEqual([512, 1024]);
    expect(meanColour(out)[0]).toBeGreaterThan(meanColour(out)[2] + 60);

    const theirs = await fetch(`${h.sandbox.url}/v1/images/edits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OTHER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'x', images: [{ file_id: file.id }] }),
    });
    expect(theirs.status).toBe(400);
    expect(((await theirs.json()) as { error: string }).error).toBe(`images[0].file_id: File ${file.id} does not exist for your team. Check the id (files are stored per team).`);

    await fetch(`${h.sandbox.url}/v1/files/${file.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${KEY}` } });
    const deleted = await h.post('/v1/images/edits', { prompt: 'x', image: { file_id: file.id } });
    expect(((await deleted.json()) as { error: string }).error).toBe(`image.file_id: File ${file.id} was deleted.`);
  });

  it("reads the sandbox's own URLs in-process: a generated image's URL and a file's public URL", async () => {
    const generated = (await (await h.post('/v1/images/generations', { prompt: 'A blue lake', aspect_ratio: '16:9' })).json()) as Result;
    const fromMedia = decoded(await edit({ image: { url: generated.data[0].url } }));
    expect([fromMedia.width, fromMedia.height]).toEqual([1024, 576]);

    const file = await uploadFile(h, 'pub.png', png(64, 64, [10, 10, 200]));
    const pub = (await (await h.post(`/v1/files/${file.id}/public-url`, {})).json()) as { public_url: string };
    // Through "localhost" too: any loopback name with this port is the sandbox itself.
    const viaLocalhost = pub.public_url.replace('127.0.0.1', 'localhost');
    expect(meanColour(decoded(await edit({ image: { url: viaLocalhost } })))[2]).toBeGreaterThan(100);

    const other = await h.post('/v1/images/edits', { prompt: 'x', image: { url: `${h.sandbox.url}/v1/models` } });
    expect(((await other.json()) as { error: string }).error).toBe('image.url points at this sandbox but not at a public file (/public/...) or media (/media/...) URL');
  });

  describe('remote URLs', () => {
    let server: Server;
    let base: string;
    beforeAll(async () => {
      server = createServer((req, res) => {
        if (req.url === '/red.png') {
          res.writeHead(200, { 'content-type': 'image/png' });
          res.end(png(30, 30, [210, 10, 10]));
        } else if (req.url === '/page.html') {
          res.writeHead(200, { 'content-type': 'image/png' });
          res.end('<!doctype html><title>not an image</title>');
        } else {
          res.writeHead(404);
          res.end();
        }
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      // Another loopback address than the sandbox's port: fetched over HTTP like any public URL.
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('fetches an http URL and checks what came back', async () => {
      expect(meanColour(decoded(await edit({ image: { url: `${base}/red.png` } })))[0]).toBeGreaterThan(150);
      const missing = await h.post('/v1/images/edits', { prompt: 'x', image: { url: `${base}/nope.png` } });
      expect(((await missing.json()) as { error: string }).error).toBe(`image.url could not be fetched: 127.0.0.1:${base.split(':')[2]} answered HTTP 404`);
      const html = await h.post('/v1/images/edits', { prompt: 'x', image: { url: `${base}/page.html` } });
      expect(((await html.json()) as { error: string }).error).toBe('image.url must be a JPEG, PNG or WebP file; its bytes are not a recognised media type');
    });
  });

  describe('multipart/form-data (what the OpenAI SDK sends)', () => {
    const send = (parts: FormPart[]) =>
      fetch(`${h.sandbox.url}/v1/images/edits`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        body: multipart(parts),
      });

    it('takes an image file part and text fields', async () => {
      const res = await send([
        { name: 'image', filename: 'in.png', contentType: 'image/png', body: png(80, 40, [220, 20, 20]) },
        { name: 'prompt', body: 'Make it dusk' },
        { name: 'n', body: '2' },
        { name: 'response_format', body: 'b64_json' },
      ]);
      expect(res.status).toBe(200);
      const result = (await res.json()) as Result;
      expect(result.data).toHaveLength(2);
      const img = decoded(result);
      expect([img.width, img.height]).toEqual([1024, 512]);
    });

    it('takes several image[] parts as a multi-reference edit, and image[url] text parts', async () => {
      const res = await send([
        { name: 'image[]', filename: 'a.png', contentType: 'image/png', body: png(10, 10, [200, 0, 0]) },
        { name: 'image[]', filename: 'b.png', contentType: 'image/png', body: png(10, 10, [0, 0, 200]) },
        { name: 'prompt', body: 'Merge <IMAGE_0> and <IMAGE_1>' },
        { name: 'aspect_ratio', body: '2:1' },
        { name: 'response_format', body: 'b64_json' },
      ]);
      expect(res.status).toBe(200);
      expect(decoded((await res.json()) as Result).width).toBe(1024);
      const byUrl = await send([
        { name: 'image[url]', body: dataUrl(png(10, 20, [0, 200, 0])) },
        { name: 'prompt', body: 'x' },
      ]);
      expect(byUrl.status).toBe(200);
    });

    it('applies the same rules, naming the fields', async () => {
      const gif = await send([
        { name: 'image', filename: 'in.gif', contentType: 'image/png', body: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00') },
        { name: 'prompt', body: 'x' },
      ]);
      expect([gif.status, ((await gif.json()) as { error: string }).error]).toEqual([400, 'image must be a JPEG, PNG or WebP file; its bytes are image/gif']);
      const noPrompt = await send([{ name: 'image', filename: 'in.png', contentType: 'image/png', body: png(4, 4, [0, 0, 0]) }]);
      expect(noPrompt.status).toBe(422);
      const badN = await send([
        { name: 'image', filename: 'in.png', contentType: 'image/png', body: png(4, 4, [0, 0, 0]) },
        { name: 'prompt', body: 'x' },
        { name: 'n', body: 'two' },
      ]);
      expect([badN.status, ((await badN.json()) as { error: string }).error]).toEqual([422, 'n must be an integer']);
      const stray = await send([
        { name: 'mask', filename: 'm.png', contentType: 'image/png', body: png(4, 4, [0, 0, 0]) },
        { name: 'prompt', body: 'x' },
      ]);
      expect(((await stray.json()) as { error: string }).error).toMatch(/^The form has a file part named "mask"/);
    });
  });
});
