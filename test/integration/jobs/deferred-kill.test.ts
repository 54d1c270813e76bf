/**
 * A deferred chat survives the main process being killed: a real app in a child process sends it
 * to a standalone sandbox (through a counting proxy the test controls), is SIGKILLed at a chosen
 * moment, and a second app on the same data folder finishes it. The sandbox must have created
 * exactly one deferred completion, and the run must end completed with its answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../../main/sandbox';
import { exited, spawnScript, type Child } from '../child-process';
import type { ChatCompletion } from '../../../shared/wire/chat';

const CHILD = join(__dirname, 'app-child.ts');
const KEY = 'sk-standalone-kill-test-0001';

/** What the proxy does with a create (POST /v1/chat/completions) while `hold` is set. */
type Hold = 'none' | 'before-sandbox' | 'after-sandbox';

interface Proxy {
  url: string;
  hold: Hold;
  /** Creates that reached the proxy, and those it forwarded to the sandbox and got answered. */
  received: number;
  answeredBySandbox: string[];
  close(): Promise<void>;
}

/** Forwards to the sandbox, except that a create can be held before or after the sandbox saw it. */
async function startProxy(target: string): Promise<Proxy> {
  const held: ServerResponse[] = [];
  const proxy: Proxy = { url: '', hold: 'none', received: 0, answeredBySandbox: [], close: async () => undefined };
  const forward = async (req: IncomingMessage, body: Buffer): Promise<{ status: number; headers: Headers; text: string }> => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !['host', 'content-length', 'connection'].includes(k)) headers[k] = v;
    const res = await fetch(`${target}${req.url}`, { method: req.method, headers, body: req.method === 'GET' ? undefined : new Uint8Array(body) });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const isCreate = req.method === 'POST' && req.url === '/v1/chat/completions';
        if (isCreate) proxy.received += 1;
        const hold = isCreate ? proxy.hold : 'none';
        if (hold === 'before-sandbox') return void held.push(res);
        const answer = await forward(req, Buffer.concat(chunks));
        if (isCreate) proxy.answeredBySandbox.push(answer.text);
        if (hold === 'after-sandbox') return void held.push(res);
        const out: Record<string, string> = {};
        answer.headers.forEach((v, k) => {
          if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection') out[k] = v;
        });
        res.writeHead(answer.status, out);
        res.end(answer.text);
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
      for (const res of held) res.destroy();
      server.closeAllConnections();
      server.close(() => r());
    });
  return proxy;
}

function startChild(dataDir: string, mode: 'start' | 'resume', baseUrl: string): Child {
  return spawnScript(CHILD, [dataDir, mode, baseUrl, KEY]);
}

interface JobRow {
  id: string;
  state: string;
  run_id: string;
  data_json: string;
}

/** Reads the child's database the way a second process would (read-only, WAL). */
function readJob(dataDir: string): { job: JobRow; run: { status: string; deferred_request_id: string | null; output_json: string | null } } | null {
  let db: Database.Database;
  try {
    db = new Database(join(dataDir, 'workbench.db'), { readonly: true, fileMustExist: true });
  } catch {
    return null;
  }
  try {
    const job = db.prepare("SELECT id, state, run_id, data_json FROM jobs WHERE kind = 'deferred-chat'").get() as JobRow | undefined;
    if (!job) return null;
    const run = db.prepare('SELECT status, deferred_request_id, output_json FROM runs WHERE id = ?').get(job.run_id) as { status: string; deferred_request_id: string | null; output_json: string | null };
    return { job, run };
  } catch {
    // The schema is still being created.
    return null;
  } finally {
    db.close();
  }
}

describe('a deferred chat across a main-process kill', () => {
  let sandbox: SandboxServer;
  let proxy: Proxy;
  let dataDir: string;
  let logs: string[];
  const children: Child[] = [];

  beforeEach(async () => {
    logs = [];
    sandbox = await startSandbox({ keys: [KEY], tokenDelayMs: 0, deferredDelayMs: 600, log: (line) => logs.push(line) });
    proxy = await startProxy(sandbox.url);
    dataDir = mkdtempSync(join(tmpdir(), 'wb-kill-'));
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

  const created = () => logs.filter((l) => /^deferred completion \S+ created$/.test(l));
  const replayed = () => logs.filter((l) => l.includes('replayed for Idempotency-Key'));

  /** Kills the first app at `moment`, starts a second on the same data, waits for the run to finish. */
  async function killThenResume(moment: () => boolean): Promise<NonNullable<ReturnType<typeof readJob>>> {
    const first = startChild(dataDir, 'start', proxy.url);
    children.push(first);
    await expect.poll(() => readJob(dataDir) !== null && moment(), { timeout: 30_000, interval: 5 }).toBe(true);
    const before = readJob(dataDir)!;
    // Killed with no chance to tidy up: the job row was written, its request id was not.
    expect(before.job.state).toMatch(/queued|running/);
    expect(JSON.parse(before.job.data_json).requestId).toBeNull();
    expect(before.run).toMatchObject({ status: 'pending', deferred_request_id: null });
    first.process.kill('SIGKILL');
    expect(await exited(first.process)).toBe('SIGKILL');

    proxy.hold = 'none';
    const second = startChild(dataDir, 'resume', proxy.url);
    children.push(second);
    await expect.poll(() => readJob(dataDir)?.run.status, { timeout: 30_000, interval: 50 }).toBe('completed');
    second.process.kill('SIGTERM');
    expect(await exited(second.process)).toBe(0);
    expect(second.output()).toMatch(/1 unfinished job\(s\) resumed/);
    return readJob(dataDir)!;
  }

  it('killed right after the job was written (the create never reached the service): resumed, one create', async () => {
    proxy.hold = 'before-sandbox';
    const after = await killThenResume(() => proxy.received >= 1);
    expect(created()).toHaveLength(1);
    expect(replayed()).toHaveLength(0);
    expect(after.job.state).toBe('completed');
    expect((JSON.parse(after.run.output_json!) as ChatCompletion).choices[0].message.content).toBe('survived');
    expect(after.run.deferred_request_id).toBe(created()[0].split(' ')[2]);
  }, 90_000);

  it('killed after the service created it but before its request id was saved: the same create is replayed, not repeated', async () => {
    proxy.hold = 'after-sandbox';
    const after = await killThenResume(() => proxy.answeredBySandbox.length >= 1);
    const firstAnswer = JSON.parse(proxy.answeredBySandbox[0]) as { request_id: string };
    expect(created()).toHaveLength(1);
    expect(replayed()).toHaveLength(1);
    expect(proxy.received).toBe(2);
    expect(after.run.deferred_request_id).toBe(firstAnswer.request_id);
    expect(after.job.state).toBe('completed');
    expect((JSON.parse(after.run.output_json!) as ChatCompletion).choices[0].message.content).toBe('survived');
  }, 90_000);
});
