/**
 * A video job survives main being killed: a real app in a child process creates a video job
 * against a standalone sandbox (through a proxy that can hold the create's answer), is SIGKILLed
 * at a chosen moment, and a second app on the same data folder finishes it. The sandbox must have
 * made exactly one video, and the job must end with it in the gallery, byte for byte.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type SandboxServer } from '../../../main/sandbox';
import { exited, spawnScript, type Child } from '../child-process';

const CHILD = join(__dirname, 'video-app-child.ts');
const KEY = 'sk-video-kill-test-0001';

function startChild(dataDir: string, mode: 'start' | 'resume', baseUrl: string): Child {
  return spawnScript(CHILD, [dataDir, mode, baseUrl, KEY]);
}

interface Row {
  id: string;
  state: string;
  data: { requestId: string | null; galleryId?: string | null };
  result: { outcome: string; galleryId: string } | null;
  gallery: { hash: string } | null;
  videoUrl: string | null;
}

function readJob(dataDir: string): Row | null {
  let db: Database.Database;
  try {
    db = new Database(join(dataDir, 'workbench.db'), { readonly: true, fileMustExist: true });
  } catch {
    return null;
  }
  try {
    const job = db.prepare("SELECT id, state, run_id, data_json, result_json FROM jobs WHERE kind = 'video'").get() as { id: string; state: string; run_id: string; data_json: string; result_json: string | null } | undefined;
    if (!job) return null;
    const output = (db.prepare('SELECT output_json FROM runs WHERE id = ?').pluck().get(job.run_id) as string | null) ?? null;
    const videoUrl = output ? ((JSON.parse(output) as { video?: { url?: string } }).video?.url ?? null) : null;
    const result = job.result_json ? JSON.parse(job.result_json) : null;
    const gallery = result?.galleryId ? (db.prepare('SELECT hash FROM gallery_items WHERE id = ?').get(result.galleryId) as { hash: string } | undefined) ?? null : null;
    return { id: job.id, state: job.state, data: JSON.parse(job.data_json), result, gallery, videoUrl };
  } catch {
    return null;
  } finally {
    db.close();
  }
}

interface Proxy {
  url: string;
  /** Hold the create's answer (after the sandbox made the video): the client dies waiting. */
  holdCreates: boolean;
  creates: number;
  close(): Promise<void>;
}

/** Forwards everything to the sandbox (bytes as they are); a create's answer can be held. */
async function startProxy(target: string): Promise<Proxy> {
  const proxy: Proxy = { url: '', holdCreates: false, creates: 0, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const isCreate = req.method === 'POST' && (req.url ?? '').startsWith('/v1/videos/');
        if (isCreate) proxy.creates += 1;
        const hold = isCreate && proxy.holdCreates;
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !['content-length', 'connection'].includes(k)) headers[k] = v;
        const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, body: req.method === 'GET' ? undefined : new Uint8Array(Buffer.concat(chunks)) });
        const body = Buffer.from(await answer.arrayBuffer());
        if (hold) return;
        const out: Record<string, string> = {};
        answer.headers.forEach((v, k) => {
          if (!['content-length', 'transfer-encoding', 'connection', 'content-encoding'].includes(k)) out[k] = v;
        });
        res.writeHead(answer.status, out);
        res.end(body);
      })().catch((error: unknown) => {
        res.writeHead(502);
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return proxy;
}

describe('a video job across a main-process kill', () => {
  let sandbox: SandboxServer;
  let proxy: Proxy;
  let logs: string[];
  let dataDir: string;
  const children: Array<ReturnType<typeof startChild>> = [];
  const created = (): string[] => logs.filter((l) => /^video \S+ created /.test(l));
  const replayed = (): string[] => logs.filter((l) => l.includes('replayed for Idempotency-Key'));
  const advance = (seconds: number): Promise<Response> =>
    fetch(`${sandbox.url}/sandbox/clock/advance`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ seconds }) });

  beforeEach(async () => {
    logs = [];
    sandbox = await startSandbox({ keys: [KEY], tokenDelayMs: 0, log: (line) => logs.push(line) });
    proxy = await startProxy(sandbox.url);
    dataDir = mkdtempSync(join(tmpdir(), 'wb-video-kill-'));
  });

  afterEach(async () => {
    for (const c of children.splice(0)) {
      if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGKILL');
      await exited(c.process);
    }
    await proxy.close();
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function killThenResume(moment: () => boolean): Promise<Row> {
    const first = startChild(dataDir, 'start', proxy.url);
    children.push(first);
    await expect.poll(() => moment(), { timeout: 30_000, interval: 10 }).toBe(true);
    first.process.kill('SIGKILL');
    expect(await exited(first.process)).toBe('SIGKILL');
    proxy.holdCreates = false;
    const second = startChild(dataDir, 'resume', proxy.url);
    children.push(second);
    await expect
      .poll(
        async () => {
          const state = readJob(dataDir)?.state;
          if (state !== 'completed') await advance(5);
          return state;
        },
        { timeout: 60_000, interval: 200 },
      )
      .toBe('completed');
    second.process.kill('SIGTERM');
    expect(await exited(second.process)).toBe(0);
    expect(second.output()).toMatch(/1 unfinished job\(s\) resumed/);
    return readJob(dataDir)!;
  }

  it('killed during polling: the resumed job polls the saved request id, never a second create', async () => {
    const after = await killThenResume(() => readJob(dataDir)?.data.requestId != null && logs.some((l) => /^video \S+ created /.test(l)));
    expect(proxy.creates).toBe(1);
    expect(created()).toHaveLength(1);
    expect(created()[0]).toContain(after.data.requestId!);
    expect(after.result).toMatchObject({ outcome: 'done', requestId: after.data.requestId });
    const served = Buffer.from(await (await fetch(`${sandbox.url}${new URL(after.videoUrl!).pathname}`)).arrayBuffer());
    const blob = readFileSync(join(dataDir, 'blobs', after.gallery!.hash.slice(0, 2), after.gallery!.hash));
    expect(blob.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(blob.equals(served)).toBe(true);
  }, 120_000);

  it('killed after the sandbox made it but before the request id was saved: the create is replayed by its Idempotency-Key', async () => {
    proxy.holdCreates = true;
    const after = await killThenResume(() => created().length >= 1 && readJob(dataDir)?.data.requestId === null);
    expect(proxy.creates).toBe(2);
    expect(created()).toHaveLength(1);
    expect(replayed()).toHaveLength(1);
    expect(created()[0]).toContain(after.data.requestId!);
    expect(after.result?.outcome).toBe('done');
  }, 120_000);
});
