/**
 * Video jobs from create to result, against a real sandbox and real encodes (kept short: 1-2 s at
 * 480p): progress on the sandbox clock, a playable H.264 MP4 (ffprobe) served with Range, each
 * failure code, moderation, upload to output.upload_url and into Files, image-to-video, edits and
 * extensions (an extension starts on its input's last frame), and the URL's expiry.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIDEO_ERROR_CODES } from '../../../../../shared/wire/videos';
import { useHarness } from '../harness';
import { uploadFile } from './files-form';
import { ffprobe, frameRgb, meanAbsDiff } from '../video/ffprobe';
import { advance, create, refusal, dataUrl, download, EDITS, EXTENSIONS, finish, GENERATIONS, pngBytes, poll, SMALL } from './videos-helpers';

const logs: string[] = [];
/** The sandbox clock moves only when a test advances it, so progress figures are exact. */
const T0 = Date.now();
const h = useHarness({ log: (line) => logs.push(line), now: () => T0 });

/** A local upload target: `/ok` keeps PUT bodies, `/denied` answers 403. */
let server: Server;
let target: string;
const received: Array<{ method: string; path: string; type: string | undefined; body: Buffer }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', path: req.url ?? '', type: req.headers['content-type'], body: Buffer.concat(chunks) });
      res.writeHead(req.url?.startsWith('/ok') ? 200 : 403).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

const fox = { prompt: 'a red fox runs through blue snow', ...SMALL };

describe('video jobs: progress and the result', () => {
  let url: string;
  let mp4: Uint8Array;

  it('rises progress with the sandbox clock, then is done with a playable H.264 MP4', async () => {
    const id = await create(h, GENERATIONS, fox);
    // 1 s at 480p is pending for 6.5 s of sandbox clock.
    expect(await poll(h, id)).toEqual({ status: 'pending', progress: 0, model: 'svc-video-1' });
    await advance(h, 2);
    expect(await poll(h, id)).toEqual({ status: 'pending', progress: 30, model: 'svc-video-1' });
    await advance(h, 2);
    expect((await poll(h, id)).progress).toBe(60);
    const done = await finish(h, id);
    expect(done).toEqual({
      status: 'done',
      progress: 100,
      model: 'svc-video-1',
      video: { url: expect.stringMatching(new RegExp(`^${h.sandbox.url}/media/videos/[A-Za-z0-9_-]{32}\\.mp4$`)), duration: 1, respect_moderation: true },
      usage: { cost_in_usd_ticks: 500_000_000 },
    });
    url = done.video!.url!;
    const got = await download(url);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('video/mp4');
    expect(got.headers.get('accept-ranges')).toBe('bytes');
    mp4 = got.bytes;
    expect(ffprobe(mp4)).toEqual({ codec: 'h264', width: 854, height: 480, duration: 1 });
  });

  it('serves byte ranges so a player can seek (206, Content-Range), without an API key', async () => {
    const part = await download(url, { range: 'bytes=100-299' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-299/${mp4.length}`);
    expect(Buffer.from(part.bytes).equals(Buffer.from(mp4.subarray(100, 300)))).toBe(true);
    const tail = await download(url, { range: 'bytes=-64' });
    expect(tail.status).toBe(206);
    expect(Buffer.from(tail.bytes).equals(Buffer.from(mp4.subarray(mp4.length - 64)))).toBe(true);
    const past = await download(url, { range: `bytes=${mp4.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${mp4.length}`);
    expect((await download(`${h.sandbox.url}/media/videos/not-a-token.mp4`)).status).toBe(404);
  });

  it('makes the same bytes for the same request, encoding them once', async () => {
    const again = await finish(h, await create(h, GENERATIONS, fox));
    expect(again.video!.url).not.toBe(url);
    expect(Buffer.from((await download(again.video!.url!)).bytes).equals(Buffer.from(mp4))).toBe(true);
    expect(logs.filter((l) => / encoded: 854x480, 12 frames/.test(l))).toHaveLength(1);
  });

  it('makes each aspect ratio at its size', async () => {
    const ids = await Promise.all(
      (['9:16', '1:1', '4:3'] as const).map((aspect_ratio) => create(h, GENERATIONS, { prompt: `green hills ${aspect_ratio}`, aspect_ratio, ...SMALL })),
    );
    const sizes = [];
    for (const id of ids) {
      const r = await finish(h, id);
      const p = ffprobe((await download(r.video!.url!)).bytes);
      expect(p.codec).toBe('h264');
      expect(p.duration).toBe(1);
      sizes.push(`${p.width}x${p.height}`);
    }
    expect(sizes).toEqual(['480x854', '480x480', '640x480']);
  });

  it('stays at 99 while the encode is slower than the clock', async () => {
    const id = await create(h, GENERATIONS, { prompt: 'a slow purple tide', duration: 3, resolution: '480p' });
    await advance(h, 60);
    expect(await poll(h, id)).toEqual({ status: 'pending', progress: 99, model: 'svc-video-1' });
    const done = await finish(h, id);
    expect(done).toMatchObject({ status: 'done', video: { duration: 3 }, usage: { cost_in_usd_ticks: 1_500_000_000 } });
    expect(ffprobe((await download(done.video!.url!)).bytes)).toMatchObject({ duration: 3, width: 854, height: 480 });
  });
});

describe('video jobs: Idempotency-Key', () => {
  it('answers a create sent again under the same key with the first request id, and refuses the key for another request', async () => {
    const key = { 'idempotency-key': 'job_video_retry_1' };
    const first = await h.post(GENERATIONS, fox, key);
    const again = await h.post(GENERATIONS, fox, key);
    const firstId = ((await first.json()) as { request_id: string }).request_id;
    expect(((await again.json()) as { request_id: string }).request_id).toBe(firstId);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await refusal(h, GENERATIONS, { ...fox, prompt: 'a different fox' }, key);
    expect(other.status).toBe(409);
    expect(other.error).toContain('already used with a different request');
    // The same key on another create endpoint is its own slot; without a key every create is new.
    expect(await create(h, GENERATIONS, fox)).not.toBe(firstId);
  });
});

describe('video jobs: failures and moderation', () => {
  it('fails halfway with each spec code when x-sandbox-video-fail asks, without progress or model', async () => {
    const ids = [];
    for (const code of VIDEO_ERROR_CODES) ids.push(await create(h, GENERATIONS, fox, { 'x-sandbox-video-fail': code }));
    expect((await poll(h, ids[0])).status).toBe('pending');
    await advance(h, 3.25);
    for (const [i, code] of VIDEO_ERROR_CODES.entries()) {
      const r = await poll(h, ids[i]);
      expect(r).toEqual({ status: 'failed', error: { code, message: expect.stringContaining(`(Injected by x-sandbox-video-fail: ${code}.)`) } });
    }
    expect((await poll(h, ids[4])).error!.message).toBe('The video engine failed while generating this video. Try again. (Injected by x-sandbox-video-fail: internal_error.)');
  });

  it('is done without a video when the prompt asks for moderation ([moderate])', async () => {
    const id = await create(h, GENERATIONS, { ...fox, prompt: 'a fox [moderate]' });
    expect(await finish(h, id)).toEqual({
      status: 'done',
      progress: 100,
      model: 'svc-video-1',
      video: { url: '', duration: 1, respect_moderation: false },
      usage: { cost_in_usd_ticks: 500_000_000 },
    });
  });
});

describe('video jobs: output.upload_url and storage_options', () => {
  it('PUTs the MP4 to output.upload_url when done', async () => {
    const done = await finish(h, await create(h, GENERATIONS, { ...fox, output: { upload_url: `${target}/ok/fox.mp4?sig=abc` } }));
    expect(done.video).not.toHaveProperty('storage_error');
    const put = received.find((r) => r.path === '/ok/fox.mp4?sig=abc');
    expect(put).toMatchObject({ method: 'PUT', type: 'video/mp4' });
    expect(put!.body.equals(Buffer.from((await download(done.video!.url!)).bytes))).toBe(true);
  });

  it('reports a refused or unreachable upload as storage_error, and is still done with its URL', async () => {
    const refused = await finish(h, await create(h, GENERATIONS, { ...fox, output: { upload_url: `${target}/denied.mp4` } }));
    expect(refused.status).toBe('done');
    expect(refused.video!.url).toMatch(/\/media\/videos\//);
    expect(refused.video!.storage_error).toBe(`Uploading the video to output.upload_url failed: ${target.slice(7)} answered HTTP 403 Forbidden.`);
    const port = await closedPort();
    const unreachable = await finish(h, await create(h, GENERATIONS, { ...fox, output: { upload_url: `http://127.0.0.1:${port}/x.mp4` } }));
    expect(unreachable.video!.storage_error).toBe(`Uploading the video to output.upload_url failed: could not reach 127.0.0.1:${port} (ECONNREFUSED).`);
  });

  it('stores the MP4 as a file with storage_options, with a public URL', async () => {
    const id = await create(h, GENERATIONS, { ...fox, storage_options: { filename: 'fox.mp4', expires_after: 7200, public_url: true } });
    const done = await finish(h, id);
    const now = ((await (await h.get('/sandbox/clock')).json()) as { now: number }).now;
    const out = done.video!.file_output!;
    expect(out).toEqual({
      file_id: expect.stringMatching(/^file_/),
      filename: 'fox.mp4',
      expires_at: expect.any(Number),
      public_url: expect.stringMatching(new RegExp(`^${h.sandbox.url}/public/[^/]+/fox\\.mp4$`)),
      public_url_expires_at: null,
    });
    expect(Math.abs(out.expires_at! - (now + 7200))).toBeLessThanOrEqual(60);
    const mp4 = (await download(done.video!.url!)).bytes;
    const file = (await (await h.get(`/v1/files/${out.file_id}`)).json()) as { bytes: number; filename: string };
    expect(file).toMatchObject({ bytes: mp4.length, filename: 'fox.mp4' });
    const content = await download(`${h.sandbox.url}/v1/files/${out.file_id}/content`, { authorization: `Bearer ${(h.sandbox.keys as string[])[0]}` });
    expect(Buffer.from(content.bytes).equals(Buffer.from(mp4))).toBe(true);
    const pub = await download(out.public_url!);
    expect(pub.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(pub.bytes).equals(Buffer.from(mp4))).toBe(true);
  });

  it('stores the file but reports public_url_error when the filename contains public-url-fail', async () => {
    const done = await finish(h, await create(h, GENERATIONS, { ...fox, storage_options: { filename: 'fox-public-url-fail.mp4', public_url: true } }));
    const out = done.video!.file_output!;
    expect(out).toEqual({
      file_id: expect.stringMatching(/^file_/),
      filename: 'fox-public-url-fail.mp4',
      public_url_error: 'The file was stored but its public URL could not be created (sandbox trigger: the filename contains "public-url-fail").',
    });
    expect((await h.get(`/v1/files/${out.file_id}`)).status).toBe(200);
  });
});

describe('video jobs: image-to-video, edits and extensions', () => {
  it('animates a PNG given as a data URL, at the requested size', async () => {
    const png = pngBytes(64, 48, [230, 20, 20]);
    const done = await finish(h, await create(h, GENERATIONS, { image: { url: dataUrl('image/png', png) }, aspect_ratio: '4:3', ...SMALL }));
    const mp4 = (await download(done.video!.url!)).bytes;
    expect(ffprobe(mp4)).toEqual({ codec: 'h264', width: 640, height: 480, duration: 1 });
    // Mostly the red picture (one shape and the frame counter are drawn over it).
    const rgb = frameRgb(mp4, 6);
    let r = 0;
    let g = 0;
    for (let i = 0; i < rgb.length; i += 3) {
      r += rgb[i];
      g += rgb[i + 1];
    }
    expect(r / (rgb.length / 3)).toBeGreaterThan(150);
    expect(g / (rgb.length / 3)).toBeLessThan(100);
  });

  it("extends a video it made: same size, the new length, starting on the input's last frame", async () => {
    const input = await finish(h, await create(h, GENERATIONS, { prompt: 'an orange kite over a gold beach', ...SMALL }));
    const inputMp4 = (await download(input.video!.url!)).bytes;
    const ext = await finish(h, await create(h, EXTENSIONS, { prompt: 'a teal bird joins it', video: { url: input.video!.url }, duration: 2 }));
    expect(ext).toMatchObject({ status: 'done', video: { duration: 2 }, usage: { cost_in_usd_ticks: 1_000_000_000 } });
    const extMp4 = (await download(ext.video!.url!)).bytes;
    expect(ffprobe(extMp4)).toEqual({ codec: 'h264', width: 854, height: 480, duration: 2 });
    const last = frameRgb(inputMp4, 11);
    const first = frameRgb(extMp4, 0);
    // Both are lossy encodes of the same picture (~2 apart); even the frame before the last is further away (~6).
    expect(meanAbsDiff(last, first)).toBeLessThan(3);
    expect(meanAbsDiff(frameRgb(inputMp4, 10), first)).toBeGreaterThan(2 * meanAbsDiff(last, first));
  });

  it('edits a video it made: same size and length, visibly changed', async () => {
    const input = await finish(h, await create(h, GENERATIONS, { prompt: 'a white boat on a navy sea', ...SMALL }));
    const inputMp4 = (await download(input.video!.url!)).bytes;
    const file = await uploadFile(h, 'boat.mp4', Buffer.from(inputMp4));
    const edit = await finish(h, await create(h, EDITS, { prompt: 'make it pink', video: { file_id: file.id } }));
    const editMp4 = (await download(edit.video!.url!)).bytes;
    expect(ffprobe(editMp4)).toEqual({ codec: 'h264', width: 854, height: 480, duration: 1 });
    expect(meanAbsDiff(frameRgb(inputMp4, 3), frameRgb(editMp4, 3))).toBeGreaterThan(15);
  });

  it('edits a foreign MP4 at its own size and length (read from its boxes)', async () => {
    // A 1:1 video this sandbox made, one byte changed: not recognised, so a stand-in scene.
    const made = (await download((await finish(h, await create(h, GENERATIONS, { prompt: 'grey stones', aspect_ratio: '1:1', duration: 2, resolution: '480p' }))).video!.url!)).bytes;
    const foreign = new Uint8Array(made);
    const mdat = Buffer.from(foreign).indexOf('mdat');
    foreign[mdat + 200] ^= 0xff;
    const edit = await finish(h, await create(h, EDITS, { prompt: 'sepia', video: { url: dataUrl('video/mp4', foreign) } }));
    expect(edit.video!.duration).toBe(2);
    expect(ffprobe((await download(edit.video!.url!)).bytes)).toEqual({ codec: 'h264', width: 480, height: 480, duration: 2 });
  });

  it('makes reference-to-video with pictures and voices on the audio model', async () => {
    const done = await finish(
      h,
      await create(h, GENERATIONS, {
        model: 'svc-video-1-audio',
        prompt: 'two friends talk',
        reference_images: [{ url: dataUrl('image/png', pngBytes(20, 20, [0, 200, 0])) }],
        reference_audios: [{ voice_id: 'ara' }, { voice_id: 'leo' }],
        ...SMALL,
      }),
    );
    expect(done.model).toBe('svc-video-1-audio');
    expect(ffprobe((await download(done.video!.url!)).bytes)).toMatchObject({ codec: 'h264', width: 854, height: 480 });
  });
});

describe('video jobs: the result URL expires', () => {
  const e = useHarness({ now: () => T0 });

  it('answers 410 saying so an hour after the job was ready; the job still shows it', async () => {
    const id = await create(e, GENERATIONS, fox);
    const done = await finish(e, id);
    expect((await download(done.video!.url!)).status).toBe(200);
    await advance(e, 3600);
    const gone = await fetch(done.video!.url!);
    expect(gone.status).toBe(410);
    expect(((await gone.json()) as { error: string }).error).toMatch(/^This video URL expired at .* video URLs work for 1 hour after the video is done/);
    expect(await poll(e, id)).toEqual(done);
    // A later create drops the expired bytes; the old job still answers the same.
    await create(e, GENERATIONS, { ...fox, prompt: 'a later fox' }, { 'x-sandbox-video-fail': 'internal_error' });
    expect(await poll(e, id)).toEqual(done);
    const ext = await e.post(EXTENSIONS, { prompt: 'more', video: { url: done.video!.url } });
    expect(ext.status).toBe(400);
    expect(((await ext.json()) as { error: string }).error).toBe(
      'video.url is a media URL of this sandbox that has expired; generate the input again or upload it as a file',
    );
  });
});
