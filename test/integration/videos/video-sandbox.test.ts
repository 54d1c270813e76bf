/**
 * Video jobs against the app's own sandbox (real H.264 MP4s, progress on the sandbox clock moved by
 * its control API): the video lands in the gallery byte for byte as the sandbox serves it; the
 * sandbox's failure trigger, moderation and storage; a result URL that expired before the app
 * could download it; 20 jobs at once; and a restart mid-poll that never makes a second video.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../../main/app';
import { createFileKeyStore } from '../../../main/store/key-file';
import type { VideoCreateInput, VideoJob } from '../../../shared/families/videos/contract';

const CTX = { sessionId: 'test', signal: new AbortController().signal };
const ENDED = /^(done|failed|moderated|expired|cancelled)$/;

async function boot(dataDir: string, logs: string[]): Promise<App> {
  return createApp({
    dataDir,
    shell: 'browser',
    keyStore: createFileKeyStore(join(dataDir, 'keys.json')),
    emit: () => undefined,
    log: (line) => logs.push(line),
    version: 'test',
    sandboxTokenDelayMs: 0,
    videoPollMs: { first: 50, max: 200 },
  });
}

describe('video jobs against the sandbox', () => {
  let dataDir: string;
  let app: App;
  const logs: string[] = [];
  let sandbox: { url: string; key: string };

  const advance = async (seconds: number): Promise<void> => {
    const res = await fetch(`${sandbox.url}/sandbox/clock/advance`, { method: 'POST', headers: { authorization: `Bearer ${sandbox.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ seconds }) });
    expect(res.status).toBe(200);
  };
  const create = async (input: Partial<VideoCreateInput>): Promise<VideoJob> =>
    app.handlers.videos.create({ mode: 'generate', model: 'svc-video-1', prompt: 'a red kite', duration: 1, resolution: '480p', aspectRatio: '16:9', ...input }, CTX);
  const get = async (id: string): Promise<VideoJob> => app.handlers.videos.get({ id }, CTX);
  /** Moves the sandbox clock until the job ends (the encode runs in real time meanwhile). */
  const finish = async (id: string, step = 10): Promise<VideoJob> => {
    await expect
      .poll(
        async () => {
          const { state } = await get(id);
          if (!ENDED.test(state)) await advance(step);
          return state;
        },
        { timeout: 30_000, interval: 100 },
      )
      .toMatch(ENDED);
    return get(id);
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'wb-video-sbx-'));
    app = await boot(dataDir, logs);
    const state = await app.handlers.connections.list(undefined, CTX);
    sandbox = { url: `http://127.0.0.1:${state.sandbox.port}`, key: state.sandbox.key };
  });
  afterAll(async () => {
    await app.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('create -> pending with progress on the sandbox clock -> done: the MP4 in the gallery is the sandbox\'s, cost recorded', async () => {
    const job = await create({ prompt: 'a red kite over green hills' });
    await expect.poll(async () => (await get(job.id)).state).toBe('pending');
    await advance(3);
    await expect.poll(async () => (await get(job.id)).progress ?? 0, { timeout: 10_000 }).toBeGreaterThan(0);
    const done = await finish(job.id);
    expect(done).toMatchObject({ state: 'done', progress: 100, duration: 1, costTicks: 500_000_000, model: 'svc-video-1' });
    const run = await app.handlers.history.get({ id: done.runId! }, CTX);
    const url = (run.output as { video: { url: string } }).video.url;
    const served = Buffer.from(await (await fetch(url)).arrayBuffer());
    const kept = readFileSync(join(dataDir, 'blobs', done.video!.hash.slice(0, 2), done.video!.hash));
    expect(kept.equals(served)).toBe(true);
    expect(kept.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(done.video).toMatchObject({ kind: 'video', mime: 'video/mp4', origin: 'generated', width: 854, height: 480 });
  }, 40_000);

  it('the sandbox\'s failure trigger ends the job failed with the code and its reason', async () => {
    const end = await finish((await create({ prompt: 'a blue kite', headers: { 'x-sandbox-video-fail': 'permission_denied' } })).id);
    expect(end).toMatchObject({ state: 'failed', error: { serviceCode: 'permission_denied' } });
    expect(end.error!.reason).toMatch(/not allowed/);
  }, 40_000);

  it('moderation and storage are explained; file_output is linked to Files', async () => {
    const moderated = await finish((await create({ prompt: 'a kite [moderate]' })).id);
    expect(moderated).toMatchObject({ state: 'moderated', video: null });
    const stored = await finish((await create({ prompt: 'a green kite', storage: { filename: 'kite.mp4' } })).id);
    expect(stored).toMatchObject({ state: 'done', storageError: null, fileOutput: { filename: 'kite.mp4' } });
    const files = await app.handlers.files.local({ limit: 50 }, CTX);
    expect(files.find((f) => f.id === stored.fileOutput!.file_id)).toMatchObject({ filename: 'kite.mp4', status: 'complete' });
  }, 60_000);

  it('a result URL that expired before the app polled the done state ends expired', async () => {
    const encoded = (): number => logs.filter((l) => /^video \w+ encoded: /.test(l)).length;
    const before = encoded();
    const job = await create({ prompt: 'a yellow kite' });
    await expect.poll(async () => (await get(job.id)).state).toBe('pending');
    // The encode finishes in real time; then the clock jumps past the URL's hour in one step.
    await expect.poll(encoded, { timeout: 20_000 }).toBe(before + 1);
    await advance(3 * 3600);
    const end = await finish(job.id, 0);
    expect(end.state).toBe('expired');
    expect(end.error!.reason).toMatch(/expired before the app could fetch it/);
  }, 40_000);

  it('20 jobs at once all finish', async () => {
    const jobs = await Promise.all(Array.from({ length: 20 }, (_, i) => create({ prompt: `kite number ${i}` })));
    // One loop moves the clock for all twenty: twenty `finish` loops each moving it aged the result
    // links past their hour while the one encoder worker was still making the last videos.
    await expect
      .poll(
        async () => {
          const states = await Promise.all(jobs.map(async (j) => (await get(j.id)).state));
          if (!states.every((state) => ENDED.test(state))) await advance(5);
          return states;
        },
        { timeout: 60_000, interval: 200 },
      )
      .toEqual(Array(20).fill('done'));
  }, 90_000);

  it('a restart mid-poll resumes the saved request id: one create in the sandbox', async () => {
    const job = await create({ prompt: 'an orange kite survives' });
    await expect.poll(async () => (await get(job.id)).state).toBe('pending');
    await app.dispose();
    app = await boot(dataDir, logs);
    const end = await finish(job.id);
    expect(end.state).toBe('done');
    expect(logs.filter((l) => l.startsWith(`video ${end.requestId} created`))).toHaveLength(1);
    expect(logs.filter((l) => l.includes('replayed for Idempotency-Key'))).toHaveLength(0);
  }, 60_000);
});
