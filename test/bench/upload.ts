/**
 * Upload benchmark: a 1 GiB sparse file sent to the sandbox's `POST /v1/files` by the real client
 * (main/api/files.ts uploadFile: multipart streamed from disk) from this plain Node process, against
 * `curl -F file=@path` to the same sandbox in the same run. The sandbox runs in a child process
 * (as it would beside the app), so this process's RSS is the client's alone: its growth over
 * each upload (peak sampled every 10 ms and on every progress call, minus the RSS just before) is
 * the figure, target ≤ 64 MiB. Throughput is the median MiB/s of alternating rounds, target ≥
 * 0.8× curl's. Each uploaded file is deleted again. `npx tsx test/bench/upload.ts [rounds]`.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ApiClient } from '../../main/api/client';
import { deleteFile, uploadFile } from '../../main/api/files';

const MIB = 2 ** 20;
const SIZE = 1024 * MIB;
const KEY = 'sk-bench-upload';

/** The highest RSS any client round saw. */
let peakRss = 0;

interface Sandbox {
  url: string;
  child: ChildProcess;
}

/** Starts `main/sandbox/cli.ts` in a child Node (through tsx) and reads its URL from stdout. */
async function startSandboxProcess(filesDir: string): Promise<Sandbox> {
  const cli = fileURLToPath(new URL('../../main/sandbox/cli.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', cli, '--key', KEY, '--files-dir', filesDir, '--max-file-bytes', String(2 * SIZE), '--quiet'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before listening`)));
    lines.once('line', resolve);
  });
  return { url, child };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** One upload through the client: seconds and the RSS growth over it. */
async function clientRound(client: ApiClient, path: string): Promise<{ seconds: number; cpuSeconds: number; rssGrowthMiB: number }> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const sample = (): void => {
    peak = Math.max(peak, process.memoryUsage.rss());
  };
  const timer = setInterval(sample, 10);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await uploadFile(client, { path, filename: 'bench.bin', contentType: 'application/octet-stream' }, { onProgress: sample });
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  clearInterval(timer);
  sample();
  peakRss = Math.max(peakRss, peak);
  if (!result.ok) throw new Error(`upload failed: ${result.error.message}`);
  if (result.value.bytes !== SIZE) throw new Error(`the sandbox stored ${result.value.bytes} bytes, not ${SIZE}`);
  await deleteFile(client, result.value.id);
  return { seconds, cpuSeconds: (used.user + used.system) / 1e6, rssGrowthMiB: (peak - before) / MIB };
}

/** One upload by curl: its own total time (process start excluded) and its CPU time (the shell's `times`). */
async function curlRound(client: ApiClient, url: string, path: string): Promise<{ seconds: number; cpuSeconds: number }> {
  const script = 'curl -sS -H "Authorization: Bearer $1" -F "file=@$2" -w "\\n%{time_total}\\n" "$3/v1/files" && times';
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn('sh', ['-c', script, 'sh', KEY, path, url], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (c: Buffer) => (text += c.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`curl exited ${code}`))));
  });
  // body, time_total, then `times`: the shell's user/sys, then its children's (curl's).
  const lines = out.trimEnd().split('\n');
  const [childTimes, , time] = [lines.at(-1) ?? '', lines.at(-2), lines.at(-3) ?? ''];
  const body = lines.slice(0, -3).join('\n');
  const cpuSeconds = childTimes
    .split(/\s+/)
    .map((t) => /^(\d+)m([\d.]+)s$/.exec(t))
    .reduce((sum, m) => sum + (m ? Number(m[1]) * 60 + Number(m[2]) : 0), 0);
  const file = JSON.parse(body) as { id: string; bytes: number };
  if (file.bytes !== SIZE) throw new Error(`curl: the sandbox stored ${file.bytes} bytes`);
  await deleteFile(client, file.id);
  return { seconds: Number(time), cpuSeconds };
}

export async function run(opts: { rounds?: number } = {}): Promise<Record<string, unknown>> {
  const rounds = opts.rounds ?? 3;
  const dir = mkdtempSync(join(tmpdir(), 'iw-bench-upload-'));
  const path = join(dir, 'sparse-1gib.bin');
  writeFileSync(path, '');
  truncateSync(path, SIZE);
  mkdirSync(join(dir, 'sandbox-files'));
  const sandbox = await startSandboxProcess(join(dir, 'sandbox-files'));
  const client = new ApiClient({ baseUrl: sandbox.url, apiKey: KEY });
  let rssAtStart = 0;
  try {
    // Warm-up: modules loaded, connection pool made, before any RSS baseline.
    const small = join(dir, 'small.bin');
    writeFileSync(small, Buffer.alloc(MIB, 7));
    const warm = await uploadFile(client, { path: small, filename: 'small.bin', contentType: 'application/octet-stream' });
    if (!warm.ok) throw new Error(`warm-up failed: ${warm.error.message}`);
    // After the client's one-time set-up (undici's parser), as in an app that has made requests before.
    rssAtStart = process.memoryUsage.rss();
    // The first read of a sparse file fills the page cache with zero pages (seconds of work):
    // done once here, by another process so this one's RSS is untouched, so neither side pays it.
    execFileSync('sh', ['-c', 'cat "$1" > /dev/null', 'sh', path]);
    const ours: Array<{ seconds: number; cpuSeconds: number; rssGrowthMiB: number }> = [];
    const curl: Array<{ seconds: number; cpuSeconds: number }> = [];
    // Alternating which goes first, so neither always meets the other's disk writeback.
    for (let i = 0; i < rounds; i++) {
      if (i % 2 === 0) {
        ours.push(await clientRound(client, path));
        curl.push(await curlRound(client, sandbox.url, path));
      } else {
        curl.push(await curlRound(client, sandbox.url, path));
        ours.push(await clientRound(client, path));
      }
    }
    const oursMiBs = median(ours.map((r) => 1024 / r.seconds));
    const curlMiBs = median(curl.map((r) => 1024 / r.seconds));
    const rssGrowth = Math.max(...ours.map((r) => r.rssGrowthMiB));
    // Also against the RSS before the first round, in case a round's own baseline hid growth.
    const sinceStart = (peakRss - rssAtStart) / MIB;
    return {
      fileMiB: 1024,
      rounds,
      sandbox: 'main/sandbox/cli.ts in a child process (POST /v1/files, streamed to disk)',
      client: {
        medianMiBps: Math.round(oursMiBs),
        seconds: ours.map((r) => Math.round(r.seconds * 100) / 100),
        cpuSeconds: ours.map((r) => Math.round(r.cpuSeconds * 100) / 100),
        rssGrowthMiB: ours.map((r) => Math.round(r.rssGrowthMiB * 10) / 10),
      },
      curl: {
        medianMiBps: Math.round(curlMiBs),
        seconds: curl.map((r) => Math.round(r.seconds * 100) / 100),
        cpuSeconds: curl.map((r) => Math.round(r.cpuSeconds * 100) / 100),
      },
      loadAverage: loadavg().map((l) => Math.round(l * 10) / 10),
      throughputVsCurl: Math.round((oursMiBs / curlMiBs) * 100) / 100,
      maxRssGrowthMiB: Math.round(rssGrowth * 10) / 10,
      rssGrowthSinceStartMiB: Math.round(sinceStart * 10) / 10,
      targets: { rssGrowthMiB: '≤ 64', throughputVsCurl: '≥ 0.8' },
      met: { rss: Math.max(rssGrowth, sinceStart) <= 64, throughput: oursMiBs / curlMiBs >= 0.8 },
    };
  } finally {
    await client.dispose();
    sandbox.child.kill('SIGTERM');
    await new Promise((resolve) => sandbox.child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rounds = process.argv[2] ? Number(process.argv[2]) : undefined;
  void run({ rounds }).then((figures) => process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`));
}
