/**
 * A service that answers a chat request with a 100 MB JSON error body (issue 8, defect 2): what
 * it costs main. The fake service runs in a child process that generates the body as it sends it
 * (so neither side holds it whole, and its memory is not ours); this process runs the real app
 * (createApp, store in a temp folder) and sends one plain chat request through a profile pointing
 * at it, then reads the run back as History would. Figures: RSS before and its peak (sampled every
 * 5 ms, after a warm-up request), the longest event-loop block (a 5 ms ticker's largest gap), wall time, how many times the
 * body was fetched, and how much of it the run kept. Each round runs in its own process. `npx tsx test/bench/huge-error.ts`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { createApp } from '../../main/app';
import { createFileKeyStore } from '../../main/store/key-file';
import type { RunRecord } from '../../shared/contract/runs';

const MB = 1e6;
const MIB = 2 ** 20;
const BODY_BYTES = 100 * MB;
const KEY = 'sk-bench-huge-error';
const CTX = { sessionId: 'bench', signal: new AbortController().signal };

/**
 * The fake service: every request gets status 400 (or `STATUS`) with a JSON error whose message
 * is BODY_BYTES long, written 64 KiB at a time as the socket drains. Prints its URL, then counts
 * requests on stderr.
 */
const SERVER = `
const http = require('node:http');
const total = Number(process.env.BODY_BYTES);
const status = Number(process.env.STATUS || 400);
let requests = 0;
const server = http.createServer((req, res) => {
  req.resume();
  if (req.headers['x-warm-up']) return res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"warm-up"}}');
  requests++;
  process.stderr.write('request ' + requests + '\\n');
  const head = '{"error":{"type":"invalid_request_error","message":"';
  const tail = '"}}';
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(total) });
  let left = total - head.length - tail.length;
  res.write(head);
  const block = 'x'.repeat(65536);
  const pump = () => {
    while (left > 0) {
      const n = Math.min(left, block.length);
      left -= n;
      if (!res.write(n === block.length ? block : block.slice(0, n))) return res.once('drain', pump);
    }
    res.end(tail);
  };
  res.on('error', () => {});
  pump();
});
server.listen(0, '127.0.0.1', () => process.stdout.write('http://127.0.0.1:' + server.address().port + '\\n'));
`;

interface FakeService {
  url: string;
  child: ChildProcess;
  requests: () => number;
}

async function startFake(status: number): Promise<FakeService> {
  const child = spawn(process.execPath, ['-e', SERVER], {
    env: { ...process.env, BODY_BYTES: String(BODY_BYTES), STATUS: String(status) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let requests = 0;
  createInterface({ input: child.stderr! }).on('line', (line) => {
    if (line.startsWith('request ')) requests = Number(line.slice(8));
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the fake service exited (${code}) before listening`)));
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
  return { url, child, requests: () => requests };
}

/** One plain chat request answered by the huge error, measured. */
async function round(status: number): Promise<Record<string, unknown>> {
  const fake = await startFake(status);
  const dataDir = mkdtempSync(join(tmpdir(), 'wb-bench-huge-'));
  const app = await createApp({
    dataDir,
    shell: 'browser',
    keyStore: createFileKeyStore(join(dataDir, 'keys.json')),
    emit: () => {},
    log: () => {},
    version: 'bench',
    sandboxTokenDelayMs: 0,
  });
  try {
    const profile = await app.handlers.connections.save({ name: 'Huge errors', baseUrl: fake.url, apiKey: KEY }, CTX);
    // One small error first, so the measured round does not include loading and compiling modules.
    const input = { connectionId: profile.id, request: { model: 'svc-4', messages: [{ role: 'user' as const, content: 'hi' }], stream: false } };
    await app.handlers.chat.send({ ...input, headers: { 'x-warm-up': '1' } }, { ...CTX, streamId: 'warm-up', emit: () => {} });
    global.gc?.();
    const rssBefore = process.memoryUsage.rss();
    let peak = rssBefore;
    let last = performance.now();
    let longestBlockMs = 0;
    const ticker = setInterval(() => {
      const t = performance.now();
      longestBlockMs = Math.max(longestBlockMs, t - last - 5);
      last = t;
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 5);
    let pageBytes = 0;
    const started = performance.now();
    const record = await app.handlers.chat.send(
      input,
      { ...CTX, streamId: 'bench', emit: (chunk: unknown) => (pageBytes += JSON.stringify(chunk).length) },
    );
    const seconds = (performance.now() - started) / 1000;
    const read = (await app.handlers.history.get({ id: record.id }, CTX)) as RunRecord;
    clearInterval(ticker);
    peak = Math.max(peak, process.memoryUsage.rss());
    return {
      status,
      bodyMB: BODY_BYTES / MB,
      rssBeforeMiB: Math.round(rssBefore / MIB),
      rssPeakMiB: Math.round(peak / MIB),
      longestEventLoopBlockMs: Math.round(longestBlockMs),
      seconds: Number(seconds.toFixed(2)),
      fetches: fake.requests(),
      keptInRunBytes: JSON.stringify(read.response?.body ?? null).length,
      sentToPageBytes: pageBytes + JSON.stringify(record).length,
      error: read.error?.message.slice(0, 200),
    };
  } finally {
    await app.dispose();
    fake.child.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One round in a fresh Node process (so one round's garbage is not the next one's baseline). */
function roundInChild(status: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), String(status)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Record<string, unknown>) : reject(new Error(`round ${status} exited ${code}`))));
  });
}

/** A 400 (read once) and a 503 (which the client retries unless the body hit the cap). */
export async function run(): Promise<Record<string, unknown>> {
  return { badRequest: await roundInChild(400), unavailable: await roundInChild(503) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const status = Number(process.argv[2]);
  if (status) void round(status).then((r) => process.stdout.write(`${JSON.stringify(r)}\n`));
  else void run().then((r) => process.stdout.write(`${JSON.stringify(r, null, 2)}\n`));
}
