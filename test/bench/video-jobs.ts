/**
 * Memory of main while 20 video jobs poll (issue 9): the real app (createApp, store in a temp
 * folder) with a profile pointing at a video service in a child process (the fake of
 * test/integration/videos until the sandbox's video routes are merged: creates, pending for
 * `POLLS` polls, then a ~200 KB MP4 each). 20 jobs are created at once; `process.memoryUsage()` is
 * sampled every 50 ms from before the creates until all are in the gallery. Figures: RSS and heap
 * before, their peaks while polling, after, polls made and wall time.
 * `npx tsx test/bench/run.ts videoJobs` (or `npx tsx test/bench/video-jobs.ts`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { createApp } from '../../main/app';
import { createFileKeyStore } from '../../main/store/key-file';

const MIB = 2 ** 20;
const JOBS = 20;
const POLLS = 25;
const CTX = { sessionId: 'bench', signal: new AbortController().signal };
const mib = (n: number): number => Math.round((n / MIB) * 10) / 10;

export async function run(): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./fake-video-child.ts', import.meta.url)), String(POLLS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the fake service exited (${code})`)));
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'wb-bench-video-'));
  const app = await createApp({
    dataDir,
    shell: 'browser',
    keyStore: createFileKeyStore(join(dataDir, 'keys.json')),
    emit: () => undefined,
    log: () => undefined,
    version: 'bench',
    sandboxTokenDelayMs: 0,
    // Polls as the app paces them, faster: 250 ms rising to 1 s, so 25 polls take ~20 s.
    videoPollMs: { first: 250, max: 1000 },
  });
  try {
    const profile = await app.handlers.connections.save({ name: 'bench video', baseUrl: url, apiKey: 'sk-bench-video' }, CTX);
    await app.handlers.connections.select({ id: profile.id }, CTX);
    global.gc?.();
    const before = process.memoryUsage();
    const peak = { rss: before.rss, heapUsed: before.heapUsed };
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peak.rss = Math.max(peak.rss, m.rss);
      peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
    }, 50);
    const started = performance.now();
    const jobs = await Promise.all(
      Array.from({ length: JOBS }, (_, i) => app.handlers.videos.create({ mode: 'generate', model: 'fake-video', prompt: `bench ${i}`, duration: 2, resolution: '480p' }, CTX)),
    );
    const ids = jobs.map((j) => j.id);
    for (;;) {
      const states = await Promise.all(ids.map(async (id) => (await app.handlers.videos.get({ id }, CTX)).state));
      if (states.every((s) => s === 'done' || s === 'failed' || s === 'expired' || s === 'moderated')) {
        if (states.some((s) => s !== 'done')) throw new Error(`not all done: ${states.join(', ')}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    const wallMs = Math.round(performance.now() - started);
    clearInterval(sampler);
    const after = process.memoryUsage();
    return {
      jobs: JOBS,
      pollsPerJob: POLLS + 1,
      wallMs,
      rssBeforeMiB: mib(before.rss),
      rssPeakMiB: mib(peak.rss),
      rssAfterMiB: mib(after.rss),
      heapBeforeMiB: mib(before.heapUsed),
      heapPeakMiB: mib(peak.heapUsed),
      heapAfterMiB: mib(after.heapUsed),
      service: 'fake video service (child process)',
    };
  } finally {
    await app.dispose();
    child.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) void run().then((r) => process.stdout.write(`${JSON.stringify(r, null, 2)}\n`));
