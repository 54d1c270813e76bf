/**
 * Every rule of the images endpoints, sent bad: the status (422 for the body's shape, 400 for a
 * broken rule, 404 for an unknown model) and a message that names the field.
 */
import { describe, expect, it } from 'vitest';
import { endpoint, useHarness } from '../harness';

const h = useHarness();
const gen = endpoint(h, '/v1/images/generations', { prompt: 'A lighthouse at dusk' });
const RED_PNG_URL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAQAAAAEAQMAAACTPww9AAAAA1BMVEX/AAAZ4gk3AAAAC0lEQVR4nGNgQAEAAA4AAf4P0G8AAAAASUVORK5CYII=';
const edit = endpoint(h, '/v1/images/edits', { prompt: 'Make it blue', image: { url: RED_PNG_URL } });

describe('sandbox/routes/images: validation', () => {
  it.each([
    ['prompt missing', { prompt: undefined }, 422, /^prompt is required/],
    ['prompt not a string', { prompt: 42 }, 422, /^prompt must be a string/],
    ['prompt blank', { prompt: '   ' }, 400, /^prompt must not be empty/],
    ['prompt too long', { prompt: 'x'.repeat(1025) }, 400, /^prompt is 1025 characters; this model takes at most 1024/],
    ['n zero', { n: 0 }, 400, /^n must be between 1 and 10; got 0/],
    ['n eleven', { n: 11 }, 400, /^n must be between 1 and 10; got 11/],
    ['n fractional', { n: 1.5 }, 422, /^n must be an integer/],
    ['n a string', { n: '2' }, 422, /^n must be an integer/],
    ['response_format unknown', { response_format: 'png' }, 422, /^response_format must be one of "url", "b64_json"/],
    ['aspect_ratio unknown', { aspect_ratio: '5:4' }, 422, /^aspect_ratio must be one of "auto", "1:1"/],
    ['resolution unknown', { resolution: '4k' }, 422, /^resolution must be one of "1k", "2k"/],
    ['user not a string', { user: 7 }, 422, /^user must be a string/],
    ['model not a string', { model: 1 }, 422, /^model must be a string/],
    ['model blank', { model: '' }, 400, /^model must not be empty/],
    ['stream true', { stream: true }, 400, /^streaming is not supported for image models/],
    ['an unknown field', { seed: 3 }, 400, /^seed is not a field of POST \/v1\/images\/generations/],
    ['OpenAI size', { size: '1024x1024' }, 400, /^size is not a field .*use aspect_ratio \(e\.g\. "16:9"\) and resolution/],
  ])('generations: %s', async (_name, body, status, message) => {
    const res = await h.post('/v1/images/generations', JSON.parse(JSON.stringify({ prompt: 'A lighthouse at dusk', ...body })));
    expect(res.status).toBe(status);
    expect(((await res.json()) as { error: string }).error).toMatch(message);
  });

  it('refuses a body that is not an object (422) and a non-JSON one (415)', async () => {
    const list = await h.post('/v1/images/generations', '["A lighthouse"]');
    expect([list.status, ((await list.json()) as { error: string }).error]).toEqual([422, 'the request body must be a JSON object']);
    const res = await h.post('/v1/images/generations', 'prompt=x', { 'content-type': 'text/plain' });
    expect(res.status).toBe(415);
  });

  it('answers 404 for an unknown model and 400 for a language or video model', async () => {
    expect(await gen.errorOf({ model: 'svc-image-9' })).toEqual({ status: 404, error: 'The model svc-image-9 does not exist or your team does not have access to it.' });
    expect(await gen.errorOf({ model: 'svc-4' })).toEqual({ status: 400, error: 'model svc-4 is a language model; the images endpoints take an image generation model (svc-image-1).' });
    expect((await gen.errorOf({ model: 'svc-video-1' })).error).toMatch(/^model svc-video-1 is a video model/);
  });

  it('accepts the alias and the defaults', async () => {
    const res = await h.post('/v1/images/generations', { model: 'svc-image-latest', prompt: 'A lighthouse', user: 'u1', stream: false, aspect_ratio: 'auto' });
    expect(res.status).toBe(200);
  });

  it('reports several problems in one message, 422 when any is about shape', async () => {
    const { status, error } = await gen.errorOf({ n: 0, resolution: '8k' });
    expect(status).toBe(422);
    expect(error).toMatch(/n must be between 1 and 10.*resolution must be one of|resolution must be one of.*n must be between/);
  });

  it.each([
    ['neither image nor images', { image: undefined }, 422, /^image is required/],
    ['both image and images', { images: [{ url: RED_PNG_URL }] }, 400, /^image and images are mutually exclusive/],
    ['image not an object', { image: 'https://example.com/a.png' }, 422, /^image must be an object/],
    ['images not an array', { image: undefined, images: { url: RED_PNG_URL } }, 422, /^images must be an array/],
    ['images empty', { image: undefined, images: [] }, 400, /^images must have 1 to 10 entries; got 0/],
    ['eleven images', { image: undefined, images: Array.from({ length: 11 }, () => ({ url: RED_PNG_URL })) }, 400, /^images must have 1 to 10 entries; got 11/],
    ['images entry not an object', { image: undefined, images: [{ url: RED_PNG_URL }, 'x'] }, 422, /^images\[1\] must be an object/],
    ['aspect_ratio on a one-image edit', { aspect_ratio: '16:9' }, 400, /^aspect_ratio is only allowed for multi-image edits/],
    ['a reference past the inputs', { image: undefined, images: [{ url: RED_PNG_URL }, { url: RED_PNG_URL }], prompt: 'Put <IMAGE_0> into <IMAGE_2>' }, 400, /^prompt refers to <IMAGE_2> but the request has 2 input images \(<IMAGE_0> to <IMAGE_1>\)/],
    ['a reference on a one-image edit', { prompt: 'Use <IMAGE_1>' }, 400, /^prompt refers to <IMAGE_1> but the request has 1 input image/],
    ['an unknown field', { mask: { url: RED_PNG_URL } }, 400, /^mask is not a field of POST \/v1\/images\/edits: masks are not supported/],
    ['url and file_id', { image: { url: RED_PNG_URL, file_id: 'file_x' } }, 400, /^image\.url and image\.file_id are mutually exclusive/],
    ['url and image_url', { image: { url: RED_PNG_URL, image_url: RED_PNG_URL } }, 400, /^image\.url and image\.image_url are the same field/],
    ['an empty image object', { image: {} }, 400, /^image needs url \(or its alias image_url\) or file_id/],
    ['an unknown member', { image: { href: RED_PNG_URL } }, 400, /^image\.href is not a field of image/],
    ['a wrong type member', { image: { url: RED_PNG_URL, type: 'video_url' } }, 400, /^image\.type must be "image_url"; got "video_url"/],
    ['url not a string', { image: { url: 5 } }, 422, /^image\.url must be a string/],
    ['an ftp URL', { image: { url: 'ftp://example.com/a.png' } }, 400, /^image\.url must be an http\(s\) URL or a base64 data URL; ftp: URLs are not fetched/],
    ['not a URL', { image: { url: 'a picture' } }, 400, /^image\.url must be an http\(s\) URL or a base64 data URL/],
    ['bad base64', { image: { url: 'data:image/png;base64,@@@@' } }, 400, /^image\.url is a data URL whose base64 data has characters outside the base64 alphabet/],
    ['a GIF', { image: { url: `data:image/png;base64,${Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00').toString('base64')}` } }, 400, /^image\.url must be a JPEG, PNG or WebP file; its bytes are image\/gif/],
    ['text bytes in images[1]', { image: undefined, images: [{ url: RED_PNG_URL }, { url: `data:image/jpeg;base64,${Buffer.from('hello').toString('base64')}` }] }, 400, /^images\[1\]\.url must be a JPEG, PNG or WebP file; its bytes are not a recognised media type/],
    ['an unknown file_id', { image: { file_id: 'file_nope' } }, 400, /^image\.file_id: File file_nope does not exist for your team/],
    // Refused before decoding (media/image-check.ts), saying what is wrong.
    ['a PNG cut short', { image: { url: RED_PNG_URL.slice(0, 100) } }, 400, /^image\.url is a PNG cut short or damaged: .*; send the whole file$/],
    ['a PNG without its header', { image: { url: RED_PNG_URL.slice(0, 40) } }, 400, /^image\.url: the image\/png header cannot be read/],
  ])('edits: %s', async (_name, body, status, message) => {
    const res = await h.post('/v1/images/edits', JSON.parse(JSON.stringify({ prompt: 'Make it blue', image: { url: RED_PNG_URL }, ...body })));
    const json = (await res.json()) as { error: string };
    expect([res.status, json.error]).toEqual([status, expect.stringMatching(message)]);
  });

  it('edits: an input over the size cap is refused naming the field and both sizes', async () => {
    const big = Buffer.alloc(21 * 1024 * 1024);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const res = await h.post('/v1/images/edits', { prompt: 'x', image: { url: `data:image/png;base64,${big.toString('base64')}` } });
    // A 21 MB image as base64 is 28 MB: under the edits' 64 MB body limit, over the 20 MB input cap.
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/^image\.url is about 21 MiB; inputs may be at most 20 MiB/);
  });

  it('edits: an unreachable URL names the field', async () => {
    const res = await h.post('/v1/images/edits', { prompt: 'x', image: { url: 'http://127.0.0.1:9/none.png' } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/^image\.url could not be fetched from 127\.0\.0\.1:9: /);
  });

  it('edits: a media URL of this sandbox that does not exist names the field', async () => {
    const res = await h.post('/v1/images/edits', { prompt: 'x', image: { url: `${h.sandbox.url}/media/images/nope.jpg` } });
    expect(await res.json()).toEqual({ code: 'Client specified an invalid argument', error: 'image.url is a media URL of this sandbox that does not exist; generate the input again or upload it as a file' });
  });

  it('edits: the body must be JSON or multipart', async () => {
    const res = await h.post('/v1/images/edits', 'x', { 'content-type': 'text/plain' });
    expect(res.status).toBe(415);
    expect(await edit.errorOf({ image: undefined })).toMatchObject({ status: 422 });
  });
});
