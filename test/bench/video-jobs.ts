/**
 * Memory of main while 20 video jobs poll (issue 9), two ways:
 *
 * - `sandbox`: the app as users run it, with its embedded sandbox (in main: real H.264 encodes in
 *   its worker thread, progress on its clock, left to run in real time): 20 jobs of 2 s at 480p.
 * - `fakeService`: main alone, against the fake video service of test/integration/videos in a
 *   child process (its memory is not main's): pending for `POLLS` polls, then a ~200 KB MP4 each.
 *
 * 20 jobs are created at once; `process.memoryUsage()` is sampled every 50 ms from before the
 * creates until all are in the gallery. Figures: RSS and heap before, their peaks while polling,
 * after, and wall time.
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

async function runFake(): Promise<Record<string, unknown>> {
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
    const memory = sampleMemory();
    const started = performance.now();
    const jobs = await Promise.all(
      Array.from({ length: JOBS }, (_, i) => app.handlers.videos.create({ mode: 'generate', model: 'fake-video', prompt: `bench ${i}`, duration: 2, resolution: '480p' }, CTX)),
    );
    const wallMs = await allDone(app, jobs.map((j) => j.id), started);
    memory.stop();
    return {
      jobs: JOBS,
      pollsPerJob: POLLS + 1,
      wallMs,
      ...figures(memory.before, memory.peak, process.memoryUsage()),
      service: 'fake video service (child process)',
    };
  } finally {
    await app.dispose();
    child.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function figures(before: NodeJS.MemoryUsage, peak: { rss: number; heapUsed: number }, after: NodeJS.MemoryUsage): Record<string, number> {
  return {
    rssBeforeMiB: mib(before.rss),
    rssPeakMiB: mib(peak.rss),
    rssAfterMiB: mib(after.rss),
    heapBeforeMiB: mib(before.heapUsed),
    heapPeakMiB: mib(peak.heapUsed),
    heapAfterMiB: mib(after.heapUsed),
  };
}

async function allDone(app: Awaited<ReturnType<typeof createApp>>, ids: string[], started: number): Promise<number> {
    for (;;) {
      const states = await Promise.all(ids.map(async (id) => (await app.handlers.videos.get({ id }, CTX)).state));
      if (states.every((s) => s === 'done' || s === 'failed' || s === 'expired' || s === 'moderated')) {
        if (states.some((s) => s !== 'done')) throw new Error(`not all done: ${states.join(', ')}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  return Math.round(performance.now() - started);
}

function sampleMemory(): { before: NodeJS.MemoryUsage; peak: { rss: number; heapUsed: number }; stop: () => void } {
  global.gc?.();
  const before = process.memoryUsage();
  const peak = { rss: before.rss, heapUsed: before.heapUsed };
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
  }, 50);
  return { before, peak, stop: () => clearInterval(sampler) };
}

async function runSandbox(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'wb-bench-video-sbx-'));
  const app = await createApp({
    dataDir,
    shell: 'browser',
    keyStore: createFileKeyStore(join(dataDir, 'keys.json')),
    emit: () => undefined,
    log: () => undefined,
    version: 'bench',
    sandboxTokenDelayMs: 0,
  });
  try {
    const memory = sampleMemory();
    const started = performance.now();
    const jobs = await Promise.all(
      Array.from({ length: JOBS }, (_, i) => app.handlers.videos.create({ mode: 'generate', model: 'svc-video-1', prompt: `bench kite ${i}`, duration: 2, resolution: '480p' }, CTX)),
    );
    const wallMs = await allDone(app, jobs.map((j) => j.id), started);
    memory.stop();
    return { jobs: JOBS, video: '2 s, 480p, real encodes', wallMs, ...figures(memory.before, memory.peak, process.memoryUsage()), service: 'embedded sandbox (in main, as the app runs)' };
  } finally {
    await app.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<Record<string, unknown>> {
  // Main alone first, from a clean process; then the app with its sandbox (whose worker stays after).
  const fakeService = await runFake();
  return { fakeService, sandbox: await runSandbox() };
}

if (import.meta.url === `file://${process.argv[1]}`) void run().then((r) => process.stdout.write(`${JSON.stringify(r, null, 2)}\n`));
