/**
 * Conformance: the official `openai` SDK's images methods against the sandbox: generate with
 * b64_json and with url (n: 2, then fetching and decoding the URLs), and edit, which the SDK sends
 * as multipart/form-data with `image` file parts, one or several.
 */
import jpeg from 'jpeg-js';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../main/sandbox/index';
import { encodePng } from '../../main/sandbox/media/image-codec';

const KEY = 'sk-conformance-openai-images';
let sandbox: SandboxServer;
let client: OpenAI;

beforeAll(async () => {
  sandbox = await startSandbox({ tokenDelayMs: 0, keys: [KEY] });
  client = new OpenAI({ apiKey: KEY, baseURL: `${sandbox.url}/v1`, maxRetries: 0 });
});
afterAll(() => sandbox.close());

function pngOf(width: number, height: number, rgb: [number, number, number]): Buffer {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set([...rgb, 255], i);
  return Buffer.from(encodePng(data, width, height));
}

const size = (bytes: Uint8Array) => {
  const img = jpeg.decode(bytes, { useTArray: true });
  return [img.width, img.height];
};

describe('openai SDK images against the sandbox', () => {
  it('generates with b64_json', async () => {
    const res = await client.images.generate({ model: 'svc-image-1', prompt: 'A lighthouse at dusk', response_format: 'b64_json' });
    expect(res.data).toHaveLength(1);
    const datum = res.data![0];
    expect(datum.url).toBeUndefined();
    expect(datum.revised_prompt).toMatch(/^A lighthouse at dusk\./);
    expect(size(Buffer.from(datum.b64_json!, 'base64'))).toEqual([1024, 1024]);
    expect((res as unknown as { data: Array<{ mime_type: string }> }).data[0].mime_type).toBe('image/jpeg');
    expect((res.usage as unknown as { cost_in_usd_ticks: number }).cost_in_usd_ticks).toBe(700_000_000);
  });

  it('generates two urls the SDK user can fetch, with the service-only fields passed through', async () => {
    const res = await client.images.generate({
      model: 'svc-image-latest',
      prompt: 'Two boats on a lake',
      n: 2,
      response_format: 'url',
      // Not in the OpenAI types: the service's own size fields.
      ...({ aspect_ratio: '16:9', resolution: '2k' } as object),
    });
    expect(res.data).toHaveLength(2);
    for (const datum of res.data!) {
      const got = await fetch(datum.url!);
      expect(got.headers.get('content-type')).toBe('image/jpeg');
      expect(size(new Uint8Array(await got.arrayBuffer()))).toEqual([2048, 1152]);
    }
  });

  it('turns a sandbox refusal into the SDK error with status and message', async () => {
    const err = await client.images.generate({ prompt: 'x', n: 11 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).message).toMatch(/n must be between 1 and 10; got 11/);
  });

  it('edits one image (multipart with an image file part)', async () => {
    const res = await client.images.edit({
      model: 'svc-image-1',
      image: await toFile(pngOf(120, 60, [220, 30, 30]), 'input.png', { type: 'image/png' }),
      prompt: 'Make it a sunset',
      response_format: 'b64_json',
    });
    const bytes = Buffer.from(res.data![0].b64_json!, 'base64');
    expect(size(bytes)).toEqual([1024, 512]);
    const img = jpeg.decode(bytes, { useTArray: true });
    let red = 0;
    let blue = 0;
    for (let i = 0; i < img.data.length; i += 4) {
      red += img.data[i];
      blue += img.data[i + 2];
    }
    expect(red).toBeGreaterThan(blue);
  });

  it('edits several images (image[] parts) as a multi-reference edit with n and url results', async () => {
    const res = await client.images.edit({
      image: [await toFile(pngOf(20, 20, [200, 0, 0]), 'a.png', { type: 'image/png' }), await toFile(pngOf(20, 20, [0, 0, 200]), 'b.png', { type: 'image/png' })],
      prompt: 'Put <IMAGE_0> next to <IMAGE_1>',
      n: 2,
      ...({ aspect_ratio: '3:4' } as object),
    });
    expect(res.data).toHaveLength(2);
    const got = await fetch(res.data![1].url!);
    expect(size(new Uint8Array(await got.arrayBuffer()))).toEqual([768, 1024]);
  });
});
