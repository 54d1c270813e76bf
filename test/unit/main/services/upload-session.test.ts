// userFiles.upload's handler (main/services/upload-session.ts) fed as the host feeds it, through
// its bounded inbound queue: byte-exact staging, the size limit, stalls (a page that stops or
// trickles), and a cancel that settles only once the partial file is gone.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { InboundQueue } from '../../../../main/host/inbound-queue';
import { stageUpload, type UploadLimits } from '../../../../main/services/upload-session';
import { UserFiles } from '../../../../main/services/user-files';

const root = mkdtempSync(join(tmpdir(), 'wb-upload-session-'));
const stagingDir = join(root, 'staging');
const logs: string[] = [];
const userFiles = new UserFiles({ stagingDir, log: (line) => logs.push(line) });
const staged = () => readdirSync(stagingDir);

afterAll(() => {
  userFiles.dispose();
  rmSync(root, { recursive: true, force: true });
});

beforeEach(() => {
  logs.length = 0;
});

/** An upload as the host runs it: the page's sends go through the same queue, cancel aborts. */
function upload(size: number, limits: UploadLimits = {}, name = 'page.bin') {
  const queue = new InboundQueue<{ data: Uint8Array }>(4, 16);
  const controller = new AbortController();
  controller.signal.addEventListener('abort', () => queue.abort(), { once: true });
  const result = stageUpload(userFiles, { name, type: 'application/octet-stream', size }, queue, controller.signal, { log: (l) => logs.push(l), ...limits });
  const settled = result.then(
    (ref) => ({ ok: true as const, ref }),
    (err: { error?: unknown }) => ({ ok: false as const, error: err.error }),
  );
  return { queue, cancel: () => controller.abort(), settled };
}

const MIB = 1024 * 1024;

describe('userFiles.upload (stageUpload)', () => {
  it('stages 10 MiB sent in 1 MiB messages byte for byte', async () => {
    const bytes = randomBytes(10 * MIB + 17);
    const u = upload(bytes.length);
    for (let at = 0; at < bytes.length; at += MIB) expect(await u.queue.push({ data: bytes.subarray(at, at + MIB) })).toBe('accepted');
    u.queue.end();
    const outcome = await u.settled;
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
    expect(outcome.ref).toMatchObject({ name: 'page.bin', size: bytes.length, type: 'application/octet-stream' });
    expect(readFileSync(userFiles.resolve(outcome.ref.ref).path).equals(bytes)).toBe(true);
    userFiles.release(outcome.ref.ref);
  });

  it('waits for the disk without piling listeners up on the staging stream (one pair per wait)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const bytes = randomBytes(24 * MIB);
      const u = upload(bytes.length);
      for (let at = 0; at < bytes.length; at += MIB) expect(await u.queue.push({ data: bytes.subarray(at, at + MIB) })).toBe('accepted');
      u.queue.end();
      const outcome = await u.settled;
      if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
      expect(readFileSync(userFiles.resolve(outcome.ref.ref).path).equals(bytes)).toBe(true);
      userFiles.release(outcome.ref.ref);
      // A warning is emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('refuses an upload larger than the limit before taking a byte', async () => {
    const u = upload(5 * MIB, { maxBytes: 4 * MIB }, 'big.iso');
    expect(await u.settled).toEqual({ ok: false, error: { code: 'invalid_input', message: '"big.iso" (5.0 MiB) is larger than the 4.0 MiB upload limit.' } });
  });

  it('refuses more bytes than announced, keeping nothing', async () => {
    const before = staged().length;
    const u = upload(10);
    await u.queue.push({ data: new Uint8Array(20) });
    u.queue.end();
    expect(await u.settled).toMatchObject({ ok: false, error: { code: 'network', message: expect.stringContaining('more than the announced 10 bytes arrived') } });
    expect(staged().filter((f) => f.endsWith('.part'))).toEqual([]);
    expect(staged().length).toBeLessThanOrEqual(before);
  });

  it('a cancel settles only once the partial file is gone', async () => {
    const before = staged().length;
    const u = upload(3 * MIB);
    await u.queue.push({ data: new Uint8Array(MIB) });
    for (let i = 0; i < 100 && !staged().some((f) => f.endsWith('.part')); i++) await new Promise((r) => setTimeout(r, 5));
    expect(staged().filter((f) => f.endsWith('.part'))).toHaveLength(1);
    u.cancel();
    expect(await u.settled).toEqual({ ok: false, error: { code: 'cancelled', message: 'The upload of "page.bin" was cancelled.' } });
    expect(staged()).toHaveLength(before);
  });

  it('stops a page that stops sending with `timeout` and a message, removing its partial file', async () => {
    const before = staged().length;
    const u = upload(MIB, { stall: { timeoutMs: 150, minBytes: 1024 } }, 'stuck.bin');
    await u.queue.push({ data: new Uint8Array(4096) });
    // Nothing more: the page's tab froze, its socket still open.
    const outcome = await u.settled;
    expect(outcome).toEqual({
      ok: false,
      error: { code: 'timeout', message: 'The upload of "stuck.bin" stalled: less than 1 KiB arrived in 0 s, so it was stopped and nothing was kept. Check the connection and try again.' },
    });
    expect(staged()).toHaveLength(before);
    expect(logs.some((l) => l.includes('"stuck.bin" stalled after 4096 bytes'))).toBe(true);
  });

  it('stops a page that trickles a few bytes now and then to hold the upload open', async () => {
    const u = upload(MIB, { stall: { timeoutMs: 150, minBytes: 1024 } }, 'trickle.bin');
    let stop = false;
    const trickle = (async () => {
      while (!stop && (await u.queue.push({ data: new Uint8Array(16) })) === 'accepted') await new Promise((r) => setTimeout(r, 40));
    })();
    const outcome = await u.settled;
    stop = true;
    await trickle;
    expect(outcome).toMatchObject({ ok: false, error: { code: 'timeout' } });
  });

  it('lets an upload that keeps sending run for many stall windows', async () => {
    const u = upload(40 * 4096, { stall: { timeoutMs: 60, minBytes: 1024 } }, 'steady.bin');
    for (let i = 0; i < 40; i++) {
      expect(await u.queue.push({ data: new Uint8Array(4096).fill(i) })).toBe('accepted');
      await new Promise((r) => setTimeout(r, 10));
    }
    u.queue.end();
    const outcome = await u.settled;
    expect(outcome).toMatchObject({ ok: true, ref: { size: 40 * 4096 } });
    if (outcome.ok) userFiles.release(outcome.ref.ref);
  });
});
