/**
 * The Files client against the real sandbox (not a scripted server): every call's shape as the
 * sandbox answers it, uploaded bytes read back byte-exact, and the sandbox's refusals (413 over
 * its size limit, 404 after delete) arriving as final errors with the service's words.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../main/api/client';
import {
  createPublicUrl,
  deleteFile,
  downloadFileContent,
  getFile,
  listFiles,
  revokePublicUrl,
  updateFile,
  uploadFile,
} from '../../../main/api/files';
import { startSandbox, type SandboxServer } from '../../../main/sandbox';

const KEY = 'sk-files-client';
let sandbox: SandboxServer;
let client: ApiClient;
let dir = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'iw-files-sb-'));
  sandbox = await startSandbox({ keys: [KEY], maxFileBytes: 2_000_000, tokenDelayMs: 0 });
  client = new ApiClient({ baseUrl: sandbox.url, apiKey: KEY, sleep: async () => undefined });
});
afterAll(async () => {
  await client.dispose();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('files client against the sandbox', () => {
  it('uploads, reads back, renames, publishes, revokes, downloads and deletes', async () => {
    const bytes = Buffer.from(Array.from({ length: 1_500_000 }, (_, i) => (i * 17) % 256));
    const path = join(dir, 'data.bin');
    writeFileSync(path, bytes);
    let progress = 0;
    const up = await uploadFile(client, { path, filename: 'data.bin', contentType: 'application/octet-stream', expiresAfter: 7200 }, { onProgress: (s) => (progress = s) });
    if (!up.ok) throw new Error(up.error.message);
    expect(up.value).toMatchObject({ object: 'file', bytes: 1_500_000, filename: 'data.bin' });
    expect(up.value.id).toMatch(/^file_[0-9a-f-]{36}$/);
    expect(up.value.expires_at).toBe(up.value.created_at + 7200);
    expect(progress).toBeGreaterThan(1_500_000);
    const id = up.value.id;

    expect(await getFile(client, id)).toMatchObject({ ok: true, value: { id, bytes: 1_500_000 } });
    const listed = await listFiles(client, { filter: 'name:"data"', limit: 10 });
    expect(listed.ok && listed.value.data.map((f) => f.id)).toEqual([id]);
    expect(await updateFile(client, id, { filename: 'renamed.bin' })).toMatchObject({ ok: true, value: { id, filename: 'renamed.bin' } });

    const published = await createPublicUrl(client, id, { expiresAfter: 3600 });
    expect(published).toMatchObject({ ok: true, value: { public_url: expect.stringContaining('renamed.bin') } });
    const revoked = await revokePublicUrl(client, id);
    expect(revoked.ok).toBe(true);
    expect(revoked.ok ? (revoked.value?.public_url ?? null) : "failed").toBeNull();

    const dest = join(dir, 'back.bin');
    const down = await downloadFileContent(client, id, dest);
    expect(down).toMatchObject({ ok: true, value: { path: dest, bytes: 1_500_000 } });
    expect(readFileSync(dest).equals(bytes)).toBe(true);

    expect(await deleteFile(client, id)).toMatchObject({ ok: true, value: { id, deleted: true } });
    expect(await getFile(client, id)).toMatchObject({ ok: false, error: { kind: 'http', status: 404 } });
  });

  it('a file over the limit is a final 413, not retried', async () => {
    const path = join(dir, 'big.bin');
    writeFileSync(path, Buffer.alloc(2_100_000, 1));
    const up = await uploadFile(client, { path, filename: 'big.bin', contentType: 'application/octet-stream' });
    expect(up).toMatchObject({ ok: false, error: { kind: 'http', status: 413 }, retries: 0 });
    if (!up.ok) expect(up.error.message).toMatch(/^The request is too large for the service \(413\)/);
  });
});
