/**
 * Video jobs through the whole app (createApp: JobQueue + VideosService + the `video` kind)
 * against a fake video service: the lifecycle, each failure, moderation, an expired result URL,
 * a download cut midway, file_output, cancel, retry on the same card, notifications, 20 jobs at
 * once, and a resume after the app went away mid-poll with no second create.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp, type App } from '../../../main/app';
import { createFileKeyStore } from '../../../main/store/key-file';
import type { VideoCreateInput, VideoJob } from '../../../shared/families/videos/contract';
import { exportCode } from '../../../shared/codegen';
import { startFakeVideoService, type FakeVideoService } from './fake-video-service';

const CTX = { sessionId: 'test', signal: new AbortController().signal };

interface Booted {
  app: App;
  events: Array<{ channel: string; payload: unknown }>;
  notify: ReturnType<typeof vi.fn>;
}

async function boot(dataDir: string, service: FakeVideoService, connect: boolean, options: { jobBackoffScale?: number } = {}): Promise<Booted> {
  const events: Booted['events'] = [];
  const notify = vi.fn();
  const app = await createApp({
    dataDir,
    shell: 'browser',
    keyStore: createFileKeyStore(join(dataDir, 'keys.json')),
    emit: (channel, payload) => events.push({ channel, payload }),
    log: () => undefined,
    version: 'test',
    sandboxTokenDelayMs: 0,
    videoPollMs: { first: 20, max: 60 },
    notify,
    ...options,
  });
  if (connect) {
    const profile = await app.handlers.connections.save({ name: 'Fake video', baseUrl: service.url, apiKey: 'sk-fake-video-0001' }, CTX);
    await app.handlers.connections.select({ id: profile.id }, CTX);
  }
  return { app, events, notify };
}

describe('video jobs (app + fake video service)', () => {
  let service: FakeVideoService;
  let dataDir: string;
  let b: Booted;
  const create = async (input: Partial<VideoCreateInput> & { prompt: string }): Promise<VideoJob> =>
    await b.app.handlers.videos.create({ mode: 'generate', model: 'fake-video', duration: 3, resolution: '480p', ...input }, CTX);
  const get = async (id: string): Promise<VideoJob> => await b.app.handlers.videos.get({ id }, CTX);
  const settled = async (id: string): Promise<VideoJob> => {
    await expect.poll(async () => (await get(id)).state, { timeout: 15_000, interval: 20 }).toMatch(/^(done|failed|moderated|expired|cancelled)$/);
    return get(id);
  };

  beforeAll(async () => {
    service = await startFakeVideoService({ pendingPolls: 2 });
    dataDir = mkdtempSync(join(tmpdir(), 'wb-video-'));
    b = await boot(dataDir, service, true);
  });
  afterAll(async () => {
    await b.app.dispose();
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates, polls, downloads into the gallery (bytes as served), records the run and notifies once', async () => {
    const job = await create({ prompt: 'a red kite over hills' });
    expect(job).toMatchObject({ state: 'creating', mode: 'generate', duration: 3, resolution: '480p', requestId: null, video: null });
    const done = await settled(job.id);
    expect(done).toMatchObject({ state: 'done', progress: 100, costTicks: 5_000_000_000, error: null, duration: 3, model: 'fake-video', cardId: job.cardId });
    expect(done.finishedAt).toBeGreaterThanOrEqual(done.createdAt);
    const item = done.video!;
    expect(item).toMatchObject({ kind: 'video', origin: 'generated', prompt: 'a red kite over hills', jobId: job.id, runId: done.runId, mime: 'video/mp4' });
    const blob = join(dataDir, 'blobs', item.hash.slice(0, 2), item.hash);
    expect(readFileSync(blob).equals(service.bytesOf(done.requestId!))).toBe(true);
    // Progress was reported on the way, as the page sees it.
    const seen = b.events.filter((e) => e.channel === 'videos.changed' && (e.payload as VideoJob).id === job.id).map((e) => (e.payload as VideoJob).state);
    expect(seen).toEqual(expect.arrayContaining(['creating', 'pending', 'downloading', 'done']));
    expect(b.notify).toHaveBeenCalledTimes(1);
    expect(b.notify.mock.calls[0]![0]).toBe('Video ready');

    const run = await b.app.handlers.history.get({ id: done.runId! }, CTX);
    expect(run).toMatchObject({ endpoint: 'videos.generations', status: 'completed', costTicks: 5_000_000_000, deferredRequestId: done.requestId });
    expect(run.request.headers['idempotency-key']).toBe(job.id);
    expect(run.request.body).toMatchObject({ model: 'fake-video', prompt: 'a red kite over hills', duration: 3, resolution: '480p' });
    const events = await b.app.handlers.history.events({ id: run.id, offset: 0, limit: 100 }, CTX);
    expect(events.events.map((e) => e.event)).toEqual(['video.created', 'video.pending', 'video.pending', 'video.done']);
    expect(await b.app.handlers.videos.ofItem({ id: item.id }, CTX)).toMatchObject({ id: job.id });
    expect(existsSync(join(dataDir, 'video-downloads')) ? readdirSync(join(dataDir, 'video-downloads')) : []).toEqual([]);

    // The run exports with its polling loop; the SDKs say why not.
    const py = exportCode(run.request, { lang: 'python' });
    expect('code' in py && py.code).toMatch(/while True:[\s\S]*time\.sleep\(5\)[\s\S]*urlretrieve/);
    expect('code' in py && py.code).not.toMatch(/idempotency/i);
    expect(exportCode(run.request, { lang: 'python-sdk' })).toHaveProperty('unsupported');
  });

  it('extends a finished video from the gallery: the item is its source, the request keeps no megabytes', async () => {
    const first = await settled((await create({ prompt: 'a boat leaves' })).id);
    const job = await create({ mode: 'extend', prompt: 'then it rains', video: { kind: 'gallery', id: first.video!.id }, duration: 4, resolution: undefined });
    expect(job.inputs).toEqual([expect.stringMatching(/^video: /)]);
    // The request as the form can show it again (Edit and resend): the input as the gallery item it is.
    expect(job.request).toEqual({ mode: 'extend', model: 'fake-video', prompt: 'then it rains', video: { kind: 'gallery', id: first.video!.id }, duration: 4 });
    const end = await settled(job.id);
    expect(end).toMatchObject({ state: 'done', mode: 'extend', duration: 3 });
    expect(end.video).toMatchObject({ origin: 'extended', sourceIds: [first.video!.id] });
    const run = await b.app.handlers.history.get({ id: end.runId! }, CTX);
    expect(run.endpoint).toBe('videos.extensions');
    // History shows the video sent by reference and URL (no base64); a re-run gets it back as sent.
    // The row keeps a blob reference, and so does the job.
    expect(run.request.body).toMatchObject({ prompt: 'then it rains', duration: 4, video: { url: { $blob: first.video!.hash, mime: 'video/mp4' } } });
    expect(run.media?.[first.video!.hash]).toMatchObject({ mime: 'video/mp4' });
    expect(JSON.stringify(run)).not.toMatch(/base64,/);
    const sent = await b.app.handlers.history.request({ id: end.runId! }, CTX);
    expect(sent.body).toMatchObject({ video: { url: expect.stringMatching(/^data:video\/mp4;base64,/) } });
    const db = new Database(join(dataDir, 'workbench.db'), { readonly: true });
    try {
      const stored = db.prepare('SELECT r.request_json AS request, j.data_json AS data FROM runs r JOIN jobs j ON j.run_id = r.id WHERE r.id = ?').get(end.runId) as { request: string; data: string };
      expect(stored.request.length).toBeLessThan(5_000);
      expect(stored.data.length).toBeLessThan(5_000);
      expect(JSON.parse(stored.request).body.video.url).toMatchObject({ $blob: first.video!.hash, mime: 'video/mp4' });
    } finally {
      db.close();
    }
  });

  it('refuses a video too large to send inline before anything is sent, naming the limit and Files', async () => {
    const before = service.creates;
    const big = Buffer.concat([Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex'), Buffer.alloc(9 * 1024 * 1024)]);
    const url = `data:video/mp4;base64,${big.toString('base64')}`;
    await expect(create({ mode: 'edit', prompt: 'brighter', video: { kind: 'url', url }, resolution: undefined, duration: undefined })).rejects.toMatchObject({
      error: { code: 'invalid_input', message: expect.stringMatching(/8 MiB[\s\S]*Upload it to Files first/) },
    });
    expect(service.creates).toBe(before);
  });

  it.each([
    ['invalid_argument', /could not use something/],
    ['permission_denied', /not allowed/],
    ['failed_precondition', /not ready/],
    ['service_unavailable', /overloaded/],
    ['internal_error', /failed while making/],
  ])('a video that fails with %s says so in plain words', async (code, reason) => {
    const job = await create({ prompt: `fail:${code} please` });
    const end = await settled(job.id);
    expect(end.state).toBe('failed');
    expect(end.error).toMatchObject({ code: 'api_error', serviceCode: code, message: expect.stringContaining(`fake failure ${code}`) });
    expect(end.error!.reason).toMatch(reason);
    expect((await b.app.handlers.history.get({ id: end.runId! }, CTX)).status).toBe('error');
  });

  it('a moderated video ends moderated with an explanation and no gallery item', async () => {
    const end = await settled((await create({ prompt: 'moderate this' })).id);
    expect(end).toMatchObject({ state: 'moderated', video: null, costTicks: 5_000_000_000 });
    expect(end.error!.reason).toMatch(/moderation/);
  });

  it('a result URL that expired before the download ends expired, saying Retry makes a new video', async () => {
    const end = await settled((await create({ prompt: 'expire soon' })).id);
    expect(end).toMatchObject({ state: 'expired', video: null });
    expect(end.error!.reason).toMatch(/expired before the app could fetch it[\s\S]*Retry makes a new video/);
    expect((await b.app.handlers.history.get({ id: end.runId! }, CTX)).status).toBe('error');
  });

  it('a download cut midway is retried, never leaving half a video', async () => {
    const job = await create({ prompt: 'cut the first download' });
    const end = await settled(job.id);
    expect(end.state).toBe('done');
    expect(end.attempt).toBe(2);
    expect(service.videos.get(end.requestId!)!.downloads).toBe(2);
    expect(end.video!.bytes).toBe(service.bytesOf(end.requestId!).length);
    expect(service.made).toBeGreaterThan(0);
  }, 20_000);

  it('records storage_error and links file_output to Files', async () => {
    const end = await settled((await create({ prompt: 'store it', storage: { filename: 'kept.mp4' } })).id);
    expect(end).toMatchObject({ state: 'done', storageError: 'PUT to upload_url answered 403', fileOutput: { file_id: `file-${end.requestId}`, filename: 'kept.mp4' } });
    const files = await b.app.handlers.files.local({ limit: 50 }, CTX);
    expect(files.find((f) => f.id === `file-${end.requestId}`)).toMatchObject({ filename: 'kept.mp4', status: 'complete' });
  });

  it('a refused create fails with the service message; an overloaded one is retried', async () => {
    const refused = await settled((await create({ prompt: 'http:422 wrong shape' })).id);
    expect(refused).toMatchObject({ state: 'failed', requestId: null, error: { code: 'api_error', status: 422 } });
    expect(refused.error!.message).toContain('refused: http:422');
    expect(refused.error!.reason).toMatch(/wrong shape/);
    // A dropped image (a data URL) comes back as the gallery item it became; no headers are kept for the form.
    const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const withImage = await settled((await create({ prompt: 'http:400 too long', image: { kind: 'url', url: png }, headers: { 'x-route': 'blue' } })).id);
    expect(withImage).toMatchObject({ state: 'failed', error: { status: 400 }, request: { mode: 'generate', prompt: 'http:400 too long', image: { kind: 'gallery', id: expect.stringMatching(/^gal_/) } } });
    expect(withImage.request).not.toHaveProperty('headers');
    const busy = await settled((await create({ prompt: 'busy engine' })).id);
    expect(busy.state).toBe('done');
  }, 20_000);

  it('cancel stops following; retry makes a new job on the same card, and the list shows the latest per card', async () => {
    service.pendingPolls = 1000;
    const job = await create({ prompt: 'a slow one', headers: { 'x-upstream-token': 'tok-1', 'x-route': 'blue' } });
    await expect.poll(() => service.lastCreateHeaders['idempotency-key']).toBe(job.id);
    expect(service.lastCreateHeaders).toMatchObject({ 'x-upstream-token': 'tok-1', 'x-route': 'blue' });
    await expect.poll(async () => (await get(job.id)).state).toBe('pending');
    const cancelled = await b.app.handlers.videos.cancel({ id: job.id }, CTX);
    expect(cancelled.state).toBe('cancelled');
    expect((await b.app.handlers.history.get({ id: cancelled.runId! }, CTX)).status).toBe('cancelled');
    service.pendingPolls = 1;
    const retried = await b.app.handlers.videos.retry({ id: job.id }, CTX);
    expect(retried).toMatchObject({ cardId: job.cardId, prompt: 'a slow one' });
    expect(retried.id).not.toBe(job.id);
    expect(retried.runId).not.toBe(job.runId);
    // The secret-looking header was redacted after the first create: a retry leaves it out rather than send '***'.
    await expect.poll(() => service.lastCreateHeaders['idempotency-key']).toBe(retried.id);
    expect(service.lastCreateHeaders['x-route']).toBe('blue');
    expect(service.lastCreateHeaders).not.toHaveProperty('x-upstream-token');
    expect((await settled(retried.id)).state).toBe('done');
    const list = await b.app.handlers.videos.list({ limit: 100 }, CTX);
    expect(list.filter((j) => j.cardId === job.cardId).map((j) => j.id)).toEqual([retried.id]);
    expect(list[0]!.id).toBe(retried.id);
    expect(await b.app.handlers.videos.dismiss({ id: retried.id }, CTX)).toEqual({ dismissed: true });
    expect((await b.app.handlers.videos.list({ limit: 100 }, CTX)).some((j) => j.cardId === job.cardId)).toBe(false);
    service.pendingPolls = 2;
  }, 20_000);

  it('notifies once per finished or failed job, never for a cancel', async () => {
    const titles = b.notify.mock.calls.map((c) => c[0] as string);
    const ended = (await b.app.handlers.jobs.list({ kind: 'video', limit: 200 }, CTX)).filter((j) => j.state === 'completed' || j.state === 'failed');
    expect(titles).toHaveLength(ended.length);
  });

  it('20 jobs at once all finish, each with its own video', async () => {
    const jobs = await Promise.all(Array.from({ length: 20 }, (_, i) => create({ prompt: `crowd ${i}` })));
    const ends = await Promise.all(jobs.map((j) => settled(j.id)));
    expect(ends.map((e) => e.state)).toEqual(Array(20).fill('done'));
    expect(new Set(ends.map((e) => e.video!.hash)).size).toBe(20);
  }, 30_000);
});

describe('a video job across a restart', () => {
  it('resumes polling the saved request id after the app went away mid-poll: one create', async () => {
    const service = await startFakeVideoService({ pendingPolls: 1000 });
    const dataDir = mkdtempSync(join(tmpdir(), 'wb-video-resume-'));
    try {
      const first = await boot(dataDir, service, true);
      const job = await first.app.handlers.videos.create({ mode: 'generate', model: 'fake-video', prompt: 'survive a restart' }, CTX);
      await expect.poll(async () => (await first.app.handlers.videos.get({ id: job.id }, CTX)).state).toBe('pending');
      await first.app.dispose();
      service.pendingPolls = 0;
      const second = await boot(dataDir, service, false);
      try {
        await expect.poll(async () => (await second.app.handlers.videos.get({ id: job.id }, CTX)).state, { timeout: 10_000 }).toBe('done');
        expect(service.creates).toBe(1);
        expect((await second.app.handlers.videos.get({ id: job.id }, CTX)).video).not.toBeNull();
      } finally {
        await second.app.dispose();
      }
    } finally {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('a video job during an outage', () => {
  it('waits out the service going away right after the create (no network, then 503s), says why and until when, survives a restart, and completes', async () => {
    const service = await startFakeVideoService({ pendingPolls: 2 });
    const dataDir = mkdtempSync(join(tmpdir(), 'wb-video-outage-'));
    // Backoff at a thousandth: 2 s → 2 ms, the 30 s cap → 30 ms. On main the job failed for good after its 6th attempt.
    const scale = { jobBackoffScale: 0.001 };
    let booted = await boot(dataDir, service, true, scale);
    const get = async (id: string): Promise<VideoJob> => await booted.app.handlers.videos.get({ id }, CTX);
    try {
      const job = await booted.app.handlers.videos.create({ mode: 'generate', model: 'fake-video', prompt: 'outlast an outage', duration: 3 }, CTX);
      await expect.poll(() => service.creates).toBe(1);
      service.outage = 'network';
      await expect.poll(async () => (await get(job.id)).waiting?.failures ?? 0, { timeout: 30_000, interval: 50 }).toBeGreaterThanOrEqual(3);
      const down = await get(job.id);
      expect(down).toMatchObject({ state: 'waiting', error: null, waiting: { reason: expect.stringMatching(/cannot reach the service/), message: expect.any(String) } });
      expect(down.waiting!.since).toBeGreaterThanOrEqual(job.createdAt);
      expect(down.finishedAt).toBeNull();

      // Still down, now answering 503: the count goes on, the reason follows.
      service.outage = 'busy';
      await expect.poll(async () => (await get(job.id)).waiting?.reason ?? '', { timeout: 30_000, interval: 20 }).toMatch(/unavailable or failing \(503\)/);
      const busy = await get(job.id);
      expect(busy.waiting!.failures).toBeGreaterThan(down.waiting!.failures);
      expect(busy.waiting!.since).toBe(down.waiting!.since);
      await expect.poll(async () => (await get(job.id)).waiting?.failures ?? 0, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(12);
      // Far past the six attempts that used to end it; and "Retry now" is the same job trying again.
      const again = await booted.app.handlers.videos.retry({ id: job.id }, CTX);
      expect(again).toMatchObject({ id: job.id, state: 'waiting' });

      // The app restarts while the job waits: it is still waiting, with its count.
      const before = (await get(job.id)).waiting!;
      await booted.app.dispose();
      booted = await boot(dataDir, service, false, scale);
      const resumed = await get(job.id);
      expect(resumed.state).toBe('waiting');
      expect(resumed.waiting!.since).toBe(before.since);
      expect(resumed.waiting!.failures).toBeGreaterThanOrEqual(before.failures);

      service.outage = null;
      await expect.poll(async () => (await get(job.id)).state, { timeout: 30_000, interval: 20 }).toBe('done');
      const done = await get(job.id);
      expect(done).toMatchObject({ state: 'done', waiting: null, error: null });
      expect(service.made).toBe(1);
      expect(done.video!.bytes).toBe(service.bytesOf(done.requestId!).length);
      const record = await booted.app.handlers.jobs.get({ id: job.id }, CTX);
      expect(record.events.filter((e) => e.state === 'answered')).toHaveLength(1);
      expect(record.events.filter((e) => e.state === 'retrying').length).toBeGreaterThanOrEqual(12);
    } finally {
      await booted.app.dispose();
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
