/**
 * A video job survives main being killed: a real app in a child process creates a video job, is
 * SIGKILLed at a chosen moment, and a second app on the same data folder finishes it. The service
 * must have made exactly one video, and the job must end with it in the gallery.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeVideoService, type FakeVideoService } from './fake-video-service';

const ROOT = resolve(__dirname, '../../..');
const CHILD = join(__dirname, 'video-app-child.ts');
const KEY = 'sk-video-kill-test-0001';

function startChild(dataDir: string, mode: 'start' | 'resume', baseUrl: string): { process: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, mode, baseUrl, KEY], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  return { process: child, output: () => output };
}

function exited(child: ChildProcess): Promise<NodeJS.Signals | number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.signalCode ?? child.exitCode);
  return new Promise((r) => child.once('exit', (code, signal) => r(signal ?? code)));
}

interface Row {
  id: string;
  state: string;
  data: { requestId: string | null; galleryId?: string | null };
  result: { outcome: string; galleryId: string } | null;
  gallery: { hash: string } | null;
}

function readJob(dataDir: string): Row | null {
  let db: Database.Database;
  try {
    db = new Database(join(dataDir, 'workbench.db'), { readonly: true, fileMustExist: true });
  } catch {
    return null;
  }
  try {
    const job = db.prepare("SELECT id, state, data_json, result_json FROM jobs WHERE kind = 'video'").get() as { id: string; state: string; data_json: string; result_json: string | null } | undefined;
    if (!job) return null;
    const result = job.result_json ? JSON.parse(job.result_json) : null;
    const gallery = result?.galleryId ? (db.prepare('SELECT hash FROM gallery_items WHERE id = ?').get(result.galleryId) as { hash: string } | undefined) ?? null : null;
    return { id: job.id, state: job.state, data: JSON.parse(job.data_json), result, gallery };
  } catch {
    return null;
  } finally {
    db.close();
  }
}

describe('a video job across a main-process kill', () => {
  let service: FakeVideoService;
  let dataDir: string;
  const children: Array<ReturnType<typeof startChild>> = [];

  beforeEach(async () => {
    service = await startFakeVideoService({ pendingPolls: 100_000 });
    dataDir = mkdtempSync(join(tmpdir(), 'wb-video-kill-'));
  });

  afterEach(async () => {
    for (const c of children.splice(0)) {
      if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGKILL');
      await exited(c.process);
    }
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function killThenResume(moment: () => boolean): Promise<Row> {
    const first = startChild(dataDir, 'start', service.url);
    children.push(first);
    await expect.poll(() => moment(), { timeout: 30_000, interval: 10 }).toBe(true);
    first.process.kill('SIGKILL');
    expect(await exited(first.process)).toBe('SIGKILL');
    service.holdCreates = false;
    service.pendingPolls = 0;
    const second = startChild(dataDir, 'resume', service.url);
    children.push(second);
    await expect.poll(() => readJob(dataDir)?.state, { timeout: 30_000, interval: 50 }).toBe('completed');
    second.process.kill('SIGTERM');
    expect(await exited(second.process)).toBe(0);
    expect(second.output()).toMatch(/1 unfinished job\(s\) resumed/);
    return readJob(dataDir)!;
  }

  it('killed during polling: the resumed job polls the saved request id, never a second create', async () => {
    const after = await killThenResume(() => {
      const row = readJob(dataDir);
      return row !== null && row.data.requestId !== null && [...service.videos.values()].some((v) => v.polls >= 2);
    });
    expect(service.creates).toBe(1);
    expect(service.made).toBe(1);
    expect(after.result).toMatchObject({ outcome: 'done', requestId: after.data.requestId });
    const blob = readFileSync(join(dataDir, 'blobs', after.gallery!.hash.slice(0, 2), after.gallery!.hash));
    expect(blob.equals(service.bytesOf(after.data.requestId!))).toBe(true);
  }, 90_000);

  it('killed after the service made it but before the request id was saved: the create is replayed by its Idempotency-Key', async () => {
    service.holdCreates = true;
    const after = await killThenResume(() => service.made >= 1 && readJob(dataDir)?.data.requestId === null);
    expect(service.creates).toBe(2);
    expect(service.made).toBe(1);
    expect(after.data.requestId).toBe([...service.videos.keys()][0]);
    expect(after.result?.outcome).toBe('done');
  }, 90_000);
});
