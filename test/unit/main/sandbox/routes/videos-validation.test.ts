/**
 * Every rule of the three video creates is checked before a request_id is handed out: each test
 * sends one bad value and reads the status (422 for a wrong type or a missing field, 400 for a
 * broken rule, 404 for an unknown model) and the message, which names the field. Accepted
 * requests here carry the failure header, so nothing is encoded.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VideoEncoder } from '../../../../../main/sandbox/video/encoder';
import { OTHER_KEY, useHarness } from '../harness';
import { uploadFile } from './files-form';
import { create, dataUrl, EDITS, EXTENSIONS, GENERATIONS, NO_ENCODE, pngBytes, refusal } from './videos-helpers';

const h = useHarness();
const PNG_URL = dataUrl('image/png', pngBytes(8, 6, [200, 30, 30]));
const GIF_URL = dataUrl('image/gif', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'));

/** A tiny real MP4 (64x64, 2 frames) and the same with its codec renamed mp4v. */
let mp4: Uint8Array;
let mp4v: Uint8Array;
let server: Server;
let serverUrl: string;

beforeAll(async () => {
  const encoder = new VideoEncoder();
  const plan = { width: 64, height: 64, fps: 12, frames: 2, startFrame: 0, seed: 1, colors: [[0, 0, 0], [9, 9, 9], [200, 0, 0], [0, 200, 0]] as Array<[number, number, number]>, background: null, tiles: [], voices: [], layers: [] };
  mp4 = await encoder.encode({ plan, background: null, tiles: [] });
  await encoder.close();
  mp4v = new Uint8Array(mp4);
  mp4v.set(Buffer.from('mp4v'), Buffer.from(mp4).indexOf('avc1', Buffer.from(mp4).indexOf('stsd')));
  server = createServer((req, res) => {
    if (req.url === '/clip.mp4') res.writeHead(200, { 'content-type': 'video/mp4' }).end(mp4);
    else if (req.url === '/old.mp4') res.writeHead(200, { 'content-type': 'video/mp4' }).end(mp4v);
    else res.writeHead(404).end('not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const gen = (body: Record<string, unknown>, headers?: Record<string, string>) => refusal(h, GENERATIONS, { prompt: 'a red fox', ...body }, headers);
const accepted = (path: string, body: Record<string, unknown>) => create(h, path, body, NO_ENCODE);

describe('POST /v1/videos/generations: checks at create', () => {
  it('refuses a body that is not an object and unknown fields', async () => {
    expect(await refusal(h, GENERATIONS, [1, 2])).toEqual({ status: 422, error: 'the request body must be a JSON object' });
    expect(await gen({ fps: 24 })).toEqual({
      status: 400,
      error: 'fps is not a parameter of POST /v1/videos/generations; it takes model, prompt, output, storage_options, user, image, input_reference, reference_images, reference_audios, aspect_ratio, resolution, duration, seconds',
    });
  });

  it('resolves the model: default, aliases, 404 unknown, 400 another kind, 422 not a string', async () => {
    await accepted(GENERATIONS, { prompt: 'x' });
    await accepted(GENERATIONS, { prompt: 'x', model: 'svc-video-latest' });
    await accepted(GENERATIONS, { prompt: 'x', model: null });
    expect(await gen({ model: 'svc-video-9' })).toEqual({ status: 404, error: 'The model svc-video-9 does not exist or your team does not have access to it.' });
    expect(await gen({ model: 'svc-4' })).toEqual({ status: 400, error: 'The model svc-4 is a language model, not a video generation model; use svc-video-1 or svc-video-1-audio.' });
    expect(await gen({ model: 'svc-image-1' })).toEqual({
      status: 400,
      error: 'The model svc-image-1 is an image generation model, not a video generation model; use svc-video-1 or svc-video-1-audio.',
    });
    expect(await gen({ model: 7 })).toEqual({ status: 422, error: 'model must be a string' });
    expect(await gen({ model: ' ' })).toEqual({ status: 400, error: 'model must not be empty (leave it out for svc-video-1)' });
  });

  it('needs a prompt for text-to-video and reference-to-video, not for image-to-video', async () => {
    expect(await refusal(h, GENERATIONS, {})).toEqual({ status: 422, error: 'prompt is required for text-to-video (it is optional only when image is given)' });
    expect(await gen({ prompt: '  ' })).toEqual({ status: 400, error: 'prompt must not be empty' });
    expect(await gen({ prompt: ['a'] })).toEqual({ status: 422, error: 'prompt must be a string' });
    expect(await refusal(h, GENERATIONS, { reference_images: [{ url: PNG_URL }] })).toEqual({
      status: 422,
      error: 'prompt is required for reference-to-video (reference_images or reference_audios)',
    });
    await accepted(GENERATIONS, { image: { url: PNG_URL } });
  });

  it('takes duration 1-15 (default 8) as a number or a numeric string, with seconds as its alias', async () => {
    await accepted(GENERATIONS, { prompt: 'x', duration: '8' });
    await accepted(GENERATIONS, { prompt: 'x', seconds: 15 });
    await accepted(GENERATIONS, { prompt: 'x', duration: 3, seconds: '3' });
    expect(await gen({ duration: 0 })).toEqual({ status: 400, error: 'duration of a video must be from 1 to 15 seconds; got 0' });
    expect(await gen({ duration: 16 })).toEqual({ status: 400, error: 'duration of a video must be from 1 to 15 seconds; got 16' });
    expect(await gen({ seconds: '20' })).toEqual({ status: 400, error: 'seconds of a video must be from 1 to 15 seconds; got 20' });
    expect(await gen({ duration: 2.5 })).toEqual({ status: 422, error: 'duration must be a whole number of seconds, like 8 or "8"; got 2.5' });
    expect(await gen({ duration: 'eight' })).toEqual({ status: 422, error: 'duration must be a whole number of seconds, like 8 or "8"; got "eight"' });
    expect(await gen({ seconds: true })).toEqual({ status: 422, error: 'seconds must be a whole number of seconds, like 8 or "8"; got true' });
    expect(await gen({ duration: 4, seconds: 5 })).toEqual({ status: 400, error: 'duration and seconds are the same field (seconds is an alias) but differ: 4 and 5; give one' });
  });

  it('takes aspect_ratio and resolution from their lists', async () => {
    await accepted(GENERATIONS, { prompt: 'x', aspect_ratio: '9:16', resolution: '1080p' });
    expect(await gen({ aspect_ratio: '21:9' })).toEqual({ status: 422, error: 'aspect_ratio must be one of "1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3"' });
    expect(await gen({ resolution: '4k' })).toEqual({ status: 422, error: 'resolution must be one of "480p", "720p", "1080p"' });
  });

  it('checks image: an object with url (alias image_url, input_reference for image) or file_id, JPEG/PNG/WebP', async () => {
    await accepted(GENERATIONS, { image: { image_url: PNG_URL } });
    await accepted(GENERATIONS, { input_reference: { url: PNG_URL } });
    expect(await gen({ image: 'https://example.com/a.png' })).toEqual({
      status: 422,
      error: 'image must be an object: {"url": "..."} (an https or base64 data URL) or {"file_id": "..."}',
    });
    expect(await gen({ image: { url: PNG_URL }, input_reference: { url: PNG_URL } })).toEqual({
      status: 400,
      error: 'image and input_reference are the same field (input_reference is an alias); give one of them',
    });
    expect(await gen({ image: { url: PNG_URL, file_id: 'file_x' } })).toEqual({ status: 400, error: 'image.url and image.file_id are mutually exclusive; give one of them' });
    expect(await gen({ image: {} })).toEqual({ status: 400, error: 'image needs url (or its alias image_url) or file_id' });
    expect((await gen({ image: { url: 'ftp://example.com/a.png' } })).error).toMatch(/^image\.url must be an http\(s\) URL or a base64 data URL/);
    expect(await gen({ image: { url: GIF_URL } })).toEqual({ status: 400, error: 'image.url must be a JPEG, PNG or WebP file; its bytes are image/gif' });
    expect(await gen({ image: { url: dataUrl('image/png', pngBytes(4, 4, [0, 0, 0]).subarray(0, 12)) } })).toEqual({
      status: 400,
      error: 'image.url: the image/png header cannot be read (the file is damaged or cut short)',
    });
    expect((await gen({ image: { file_id: 'file_nope' } })).error).toBe('image.file_id: File file_nope does not exist for your team. Check the id (files are stored per team).');
    const text = await uploadFile(h, 'notes.txt', 'not a picture');
    expect((await gen({ image: { file_id: text.id } })).error).toBe('image.file_id must be a JPEG, PNG or WebP file; its bytes are not a recognised media type');
    const png = await uploadFile(h, 'red.png', pngBytes(8, 8, [255, 0, 0]));
    await accepted(GENERATIONS, { image: { file_id: png.id } });
  });

  it('checks reference_images (at most 10 image objects) and refuses them with image', async () => {
    await accepted(GENERATIONS, { prompt: 'x', reference_images: [{ url: PNG_URL }, { url: PNG_URL }] });
    expect(await gen({ reference_images: { url: PNG_URL } })).toEqual({ status: 422, error: 'reference_images must be an array of {"url": ...} or {"file_id": ...} objects' });
    expect(await gen({ reference_images: Array.from({ length: 11 }, () => ({ url: PNG_URL })) })).toEqual({ status: 400, error: 'reference_images may have at most 10 entries; got 11' });
    expect(await gen({ reference_images: ['https://example.com/a.png'] })).toEqual({ status: 422, error: 'reference_images[0] must be an object: {"url": "..."} or {"file_id": "..."}' });
    expect(await gen({ reference_images: [{ url: PNG_URL }, { url: GIF_URL }] })).toEqual({
      status: 400,
      error: 'reference_images[1].url must be a JPEG, PNG or WebP file; its bytes are image/gif',
    });
    expect(await gen({ image: { url: PNG_URL }, reference_images: [{ url: PNG_URL }] })).toEqual({
      status: 400,
      error: 'give image (image-to-video) or reference_images / reference_audios (reference-to-video), not both',
    });
  });

  it('checks reference_audios: at most 3 built-in voice ids, only on a model that takes audio', async () => {
    const model = 'svc-video-1-audio';
    await accepted(GENERATIONS, { prompt: 'x', model, reference_audios: [{ voice_id: 'eve' }, { voice_id: 'leo' }, { voice_id: 'sal' }] });
    expect(await gen({ model, reference_audios: [{ voice_id: 'eve' }, { voice_id: 'eve' }, { voice_id: 'eve' }, { voice_id: 'eve' }] })).toEqual({
      status: 400,
      error: 'reference_audios may have at most 3 entries; got 4',
    });
    expect(await gen({ model, reference_audios: [{ voice_id: 'grumpy' }] })).toEqual({
      status: 400,
      error: 'reference_audios[0].voice_id "grumpy" is not a built-in voice; use one of eve, ara, leo, rex, sal',
    });
    expect(await gen({ model, reference_audios: [{}] })).toEqual({ status: 422, error: 'reference_audios[0].voice_id is required' });
    expect(await gen({ model, reference_audios: [{ voice_id: 'eve', speed: 2 }] })).toEqual({ status: 400, error: 'reference_audios[0].speed is not a field of reference_audios[0]; it takes voice_id only' });
    expect(await gen({ model, reference_audios: 'eve' })).toEqual({ status: 422, error: 'reference_audios must be an array of {"voice_id": "..."} objects' });
    expect(await gen({ reference_audios: [{ voice_id: 'eve' }] })).toEqual({
      status: 400,
      error: 'reference_audios needs a model that takes audio (svc-video-1-audio); svc-video-1 does not.',
    });
  });

  it('checks output.upload_url (an http(s) URL)', async () => {
    await accepted(GENERATIONS, { prompt: 'x', output: { upload_url: 'https://bucket.example/put?sig=1' } });
    expect(await gen({ output: 'https://bucket.example/put' })).toEqual({ status: 422, error: 'output must be an object: {"upload_url": "https://..."}' });
    expect(await gen({ output: {} })).toEqual({ status: 422, error: 'output.upload_url is required: the signed URL the video is uploaded to by HTTP PUT' });
    expect(await gen({ output: { upload_url: 'ftp://bucket.example/x' } })).toEqual({ status: 400, error: 'output.upload_url must be an http(s) URL; got "ftp://bucket.example/x"' });
    expect(await gen({ output: { upload_url: 'https://b.example/x', method: 'POST' } })).toEqual({ status: 400, error: 'output.method is not a field of output; it takes upload_url only' });
  });

  it('checks storage_options: filename required, expires_after up to 30 days or null, public_url boolean or object', async () => {
    await accepted(GENERATIONS, { prompt: 'x', storage_options: { filename: 'clip.mp4', expires_after: 2_592_000, public_url: { expires_after: 3600 } } });
    await accepted(GENERATIONS, { prompt: 'x', storage_options: { filename: 'clip.mp4', expires_after: null, public_url: false } });
    const so = (storage_options: unknown) => gen({ storage_options });
    expect(await so('clip.mp4')).toEqual({ status: 422, error: 'storage_options must be an object: {"filename": "..."}' });
    expect(await so({ expires_after: 60 })).toEqual({ status: 422, error: 'storage_options.filename is required: the name the stored file gets' });
    expect(await so({ filename: 'a/b.mp4' })).toEqual({ status: 400, error: 'storage_options.filename must be a plain file name without a path ("/" or "\\"); got "a/b.mp4"' });
    expect(await so({ filename: 'c.mp4', expires_after: 2_592_001 })).toEqual({ status: 400, error: 'storage_options.expires_after must be from 1 to 2592000 seconds (30 days); got 2592001' });
    expect(await so({ filename: 'c.mp4', expires_after: 0 })).toEqual({ status: 400, error: 'storage_options.expires_after must be from 1 to 2592000 seconds (30 days); got 0' });
    expect(await so({ filename: 'c.mp4', expires_after: '60' })).toEqual({ status: 422, error: 'storage_options.expires_after must be a whole number of seconds or null' });
    expect(await so({ filename: 'c.mp4', public_url: 'yes' })).toEqual({ status: 422, error: 'storage_options.public_url must be a boolean or an object {"expires_after": seconds}' });
    expect(await so({ filename: 'c.mp4', public_url: { ttl: 5 } })).toEqual({ status: 400, error: 'storage_options.public_url.ttl is not a field of public_url; it takes expires_after only' });
    expect(await so({ filename: 'c.mp4', public_url: { expires_after: 60 } })).toEqual({
      status: 400,
      error: 'storage_options.public_url.expires_after must be between 3600 (1 hour) and 2592000 (30 days) seconds; got 60',
    });
    expect(await so({ filename: 'c.mp4', bucket: 'b' })).toEqual({ status: 400, error: 'storage_options.bucket is not a field of storage_options; it takes filename, expires_after and public_url' });
  });

  it('checks user, and reports several problems at once', async () => {
    expect(await gen({ user: 42 })).toEqual({ status: 422, error: 'user must be a string' });
    expect(await gen({ duration: 99, user: 42 })).toEqual({ status: 422, error: 'duration of a video must be from 1 to 15 seconds; got 99 (and 1 more: user must be a string)' });
  });

  it('answers x-sandbox-video-fail: overload with a 503 and refuses an unknown value', async () => {
    expect(await gen({}, { 'x-sandbox-video-fail': 'overload' })).toEqual({
      status: 503,
      error: 'The video engine is overloaded (service_unavailable) and cannot take this request now; retry in a few seconds. (Injected by x-sandbox-video-fail: overload.)',
    });
    expect(await gen({}, { 'x-sandbox-video-fail': 'sometimes' })).toEqual({
      status: 400,
      error: 'x-sandbox-video-fail: "sometimes" is not one of invalid_argument, permission_denied, failed_precondition, service_unavailable, internal_error, overload.',
    });
  });
});

describe('POST /v1/videos/edits and /v1/videos/extensions: checks at create', () => {
  const mp4Url = () => dataUrl('video/mp4', mp4);

  it('needs a prompt and a video', async () => {
    expect(await refusal(h, EDITS, { video: { url: mp4Url() } })).toEqual({ status: 422, error: 'prompt is required: say what to change in the video' });
    expect(await refusal(h, EXTENSIONS, { video: { url: mp4Url() } })).toEqual({ status: 422, error: 'prompt is required: say what happens next' });
    expect(await refusal(h, EDITS, { prompt: 'x' })).toEqual({ status: 422, error: 'video is required: {"url": "https://.../clip.mp4"} or {"file_id": "..."}' });
    expect(await refusal(h, EDITS, { prompt: 'x', video: 'https://a.example/v.mp4' })).toEqual({
      status: 422,
      error: 'video must be an object: {"url": "https://.../clip.mp4"} or {"file_id": "..."}',
    });
  });

  it('takes video as an .mp4 URL, a data URL or a file id, never both', async () => {
    await accepted(EDITS, { prompt: 'x', video: { url: mp4Url() } });
    await accepted(EXTENSIONS, { prompt: 'x', video: { url: `${serverUrl}/clip.mp4` } });
    const file = await uploadFile(h, 'clip.mp4', Buffer.from(mp4));
    await accepted(EDITS, { prompt: 'x', video: { file_id: file.id } });
    expect(await refusal(h, EDITS, { prompt: 'x', video: { url: `${serverUrl}/clip.mov` } })).toEqual({
      status: 400,
      error: `video.url must end in .mp4 (an MP4 with H.264, H.265 or AV1 video); got "${serverUrl}/clip.mov"`,
    });
    expect(await refusal(h, EDITS, { prompt: 'x', video: { url: mp4Url(), file_id: file.id } })).toEqual({
      status: 400,
      error: 'video.url and video.file_id are mutually exclusive; give one of them',
    });
    expect(await refusal(h, EDITS, { prompt: 'x', video: { url: `${serverUrl}/missing.mp4` } })).toEqual({
      status: 400,
      error: `video.url could not be fetched: ${serverUrl.slice(7)} answered HTTP 404`,
    });
  });

  it('checks the content: an MP4 with a video track of a supported codec', async () => {
    expect(await refusal(h, EXTENSIONS, { prompt: 'x', video: { url: `${serverUrl}/old.mp4` } })).toEqual({
      status: 400,
      error: 'video.url uses the codec "mp4v", which is not supported; use H.264 (avc1/avc3), H.265 (hvc1/hev1) or AV1 (av01)',
    });
    const text = await uploadFile(h, 'fake.mp4', 'not a video');
    expect(await refusal(h, EDITS, { prompt: 'x', video: { file_id: text.id } })).toEqual({
      status: 400,
      error: 'video.file_id must be a MP4 file; its bytes are not a recognised media type',
    });
    const cut = mp4.subarray(0, Buffer.from(mp4).indexOf('moov') + 20);
    expect(await refusal(h, EDITS, { prompt: 'x', video: { url: dataUrl('video/mp4', cut) } })).toEqual({
      status: 400,
      error: 'video.url is not a complete MP4: its moov box is cut short',
    });
  });

  it('takes extension duration 2-10 (default 6) and ignores an edit’s duration, aspect and resolution', async () => {
    await accepted(EXTENSIONS, { prompt: 'x', video: { url: mp4Url() }, seconds: '10' });
    expect(await refusal(h, EXTENSIONS, { prompt: 'x', video: { url: mp4Url() }, duration: 1 })).toEqual({
      status: 400,
      error: 'duration of an extension must be from 2 to 10 seconds; got 1',
    });
    expect(await refusal(h, EXTENSIONS, { prompt: 'x', video: { url: mp4Url() }, duration: 11 })).toEqual({
      status: 400,
      error: 'duration of an extension must be from 2 to 10 seconds; got 11',
    });
    await accepted(EDITS, { prompt: 'x', video: { url: mp4Url() }, duration: 99, aspect_ratio: '1:1', resolution: '1080p' });
    expect(await refusal(h, EDITS, { prompt: 'x', video: { url: mp4Url() }, image: { url: PNG_URL } })).toEqual({
      status: 400,
      error: 'image is not a parameter of POST /v1/videos/edits; it takes model, prompt, output, storage_options, user, video, duration, seconds, aspect_ratio, resolution',
    });
  });
});

describe('GET /v1/videos/{request_id}', () => {
  it('404s for an unknown id and for another team’s job', async () => {
    const id = await accepted(GENERATIONS, { prompt: 'x' });
    expect((await h.get(`/v1/videos/${id}`)).status).toBe(200);
    for (const [path, key] of [
      ['/v1/videos/3f0c2b1e-0000-4000-8000-000000000000', undefined],
      [`/v1/videos/${id}`, OTHER_KEY],
    ] as const) {
      const res = await h.get(path, key ? { authorization: `Bearer ${key}` } : {});
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: string }).error).toMatch(/^Video request .* does not exist for your team/);
    }
  });
});
