/**
 * Conformance: the official `openai` SDK's Files methods against the sandbox (create with toFile
 * and with a ReadStream, list with auto-pagination, retrieve, content, delete), asserting what
 * the SDK parsed and the bytes it got back.
 */
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../main/sandbox/index';

const KEY = 'sk-conformance-openai-files';
let sandbox: SandboxServer;
let client: OpenAI;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ tokenDelayMs: 0, keys: [KEY] });
  client = new OpenAI({ apiKey: KEY, baseURL: `${sandbox.url}/v1`, maxRetries: 0 });
  dir = mkdtempSync(join(tmpdir(), 'openai-files-'));
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('openai SDK files against the sandbox', () => {
  it('creates from toFile with an expiry, retrieves it and reads the same bytes back', async () => {
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256));
    // expires_after before file: the service wants the expiry fields first, and the SDK keeps key order.
    const created = await client.files.create({
      expires_after: { anchor: 'created_at', seconds: 3600 },
      purpose: 'assistants',
      file: await toFile(bytes, 'data.bin'),
    });
    expect(created).toMatchObject({ object: 'file', bytes: 4096, filename: 'data.bin', purpose: 'assistants' });
    expect(created.id).toMatch(/^file_[0-9a-f-]{36}$/);
    expect(created.expires_at).toBe(created.created_at + 3600);

    const retrieved = await client.files.retrieve(created.id);
    expect(retrieved).toEqual(created);
    const content = await client.files.content(created.id);
    expect(Buffer.from(await content.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('creates from a ReadStream and lists every file across pages', async () => {
    const path = join(dir, 'stream me.txt');
    writeFileSync(path, 'streamed from disk\n'.repeat(1000));
    const fromDisk = await client.files.create({ file: createReadStream(path), purpose: 'user_data' });
    expect(fromDisk).toMatchObject({ filename: 'stream me.txt', bytes: 19_000 });
    for (let i = 0; i < 3; i++) await client.files.create({ file: await toFile(Buffer.from(`n${i}`), `small-${i}.txt`), purpose: 'assistants' });

    const first = await client.files.list({ limit: 2 });
    expect(first.data.map((f) => f.filename)).toEqual(['small-2.txt', 'small-1.txt']);
    const all: string[] = [];
    for await (const f of client.files.list({ limit: 2 })) all.push(f.filename);
    expect(all).toEqual(['small-2.txt', 'small-1.txt', 'small-0.txt', 'stream me.txt', 'data.bin']);
  });

  it('deletes a file, after which retrieve and content are NotFoundError', async () => {
    const file = await client.files.create({ file: await toFile(Buffer.from('bye'), 'bye.txt'), purpose: 'assistants' });
    expect(await client.files.delete(file.id)).toEqual({ id: file.id, object: 'file', deleted: true });
    const err = await client.files.retrieve(file.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect((err as Error).message).toContain(`File ${file.id} was deleted.`);
    expect(await client.files.content(file.id).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('surfaces a refused upload as BadRequestError with the reason', async () => {
    const err = await client.files
      .create({ file: await toFile(Buffer.from('x'), 'x.txt'), purpose: 'assistants', expires_after: { anchor: 'created_at', seconds: 60 } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as Error).message).toContain('expires_after');
  });
});
