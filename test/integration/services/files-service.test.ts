/**
 * The Files service against the embedded sandbox, with the real client and real files on disk:
 * upload with progress, list with a filter, download the same bytes, delete, cancel mid-upload
 * (nothing left on the service), and a file that expires on the sandbox's clock.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as filesApi from '../../../main/api/files';
import { startSandbox, type SandboxServer } from '../../../main/sandbox';
import { ConnectionsService } from '../../../main/services/connections-service';
import { DownloadTickets } from '../../../main/services/download-tickets';
import { FilesService } from '../../../main/families/files/files-service';
import { UserFiles } from '../../../main/services/user-files';
import { closeDatabase, openDatabase, type Db } from '../../../main/store/db';
import { createMemoryKeyStore } from '../../../main/store/key-store';
import { getRun } from '../../../main/store/runs';
import type { FileRecord, FileUploadChunk } from '../../../shared/families/files/contract';

describe('FilesService against the sandbox', () => {
  let dir: string;
  let db: Db;
  let sandbox: SandboxServer;
  let connections: ConnectionsService;
  let userFiles: UserFiles;
  let tickets: DownloadTickets;
  let service: FilesService;
  let clock = Date.UTC(2026, 10, 24, 10, 0, 0);
  const key = 'sk-sandbox-files-integration';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wb-files-int-'));
    db = openDatabase(':memory:');
    sandbox = await startSandbox({ keys: [key], tokenDelayMs: 0, now: () => clock });
    connections = new ConnectionsService({ db, keyStore: createMemoryKeyStore(), sandbox: { url: sandbox.url, key, port: sandbox.port, preferredPort: sandbox.port, preferredSource: 'default' }, emit: () => {} });
    userFiles = new UserFiles({ stagingDir: join(dir, 'staging'), log: () => {} });
    tickets = new DownloadTickets({ dir: join(dir, 'downloads') });
    service = new FilesService({ db, connections, api: filesApi, userFiles, emitChanged: () => {}, tickets, now: () => clock });
  });

  afterAll(async () => {
    tickets.dispose();
    userFiles.dispose();
    await connections.dispose();
    await sandbox.close();
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  });

  async function upload(name: string, bytes: Buffer, options: { expiresAfter?: number; abortAtFirstProgress?: boolean } = {}): Promise<{ record: FileRecord; chunks: FileUploadChunk[] }> {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    const ref = await userFiles.register(path);
    const controller = new AbortController();
    const chunks: FileUploadChunk[] = [];
    const record = await service.upload(
      { ref: ref.ref, ...(options.expiresAfter ? { expiresAfter: options.expiresAfter } : {}) },
      {
        signal: controller.signal,
        emit: (c) => {
          chunks.push(c);
          if (options.abortAtFirstProgress && c.type === 'progress') controller.abort();
        },
      },
    );
    return { record, chunks };
  }

  it('uploads, lists with a filter, downloads the same bytes and deletes', async () => {
    const big = randomBytes(3 * 1024 * 1024);
    const small = Buffer.from('hello, files');
    const one = await upload('big-report.bin', big, { expiresAfter: 7200 });
    const two = await upload('notes.txt', small);
    expect(one.record).toMatchObject({ status: 'complete', bytes: big.length, filename: 'big-report.bin', id: expect.stringMatching(/^file_/) });
    expect(one.chunks.at(-1)).toMatchObject({ type: 'progress', sent: big.length, total: big.length });
    expect(getRun(db, one.record.runId!)).toMatchObject({ endpoint: 'files.upload', status: 'completed', promptPreview: 'big-report.bin' });

    const filtered = await service.list({ sortBy: 'size', order: 'desc', limit: 10, filter: 'name:"REPORT" AND size_bytes > 1000' });
    expect(filtered.items.map((f) => f.id)).toEqual([one.record.id]);
    const all = await service.list({ sortBy: 'filename', order: 'asc', limit: 1 });
    expect(all.items.map((f) => f.filename)).toEqual(['big-report.bin']);
    const next = await service.list({ sortBy: 'filename', order: 'asc', limit: 1, paginationToken: all.nextToken! });
    expect(next.items.map((f) => f.filename)).toEqual(['notes.txt']);

    const saved = await service.download({ id: one.record.id! }, { signal: new AbortController().signal, emit: () => {} });
    const ticket = tickets.take(saved.url!.split('/').pop()!)!;
    expect(readFileSync(ticket.path).equals(big)).toBe(true);

    expect(await service.remove({ id: two.record.id! })).toMatchObject({ status: 'deleted' });
    expect((await service.list({ sortBy: 'created_at', order: 'desc', limit: 10 })).items.map((f) => f.id)).toEqual([one.record.id]);
    await expect(service.download({ id: two.record.id! }, { signal: new AbortController().signal, emit: () => {} })).rejects.toMatchObject({ error: { code: 'not_found' } });
  });

  it('renames and sets the expiry with PUT, and serves a public URL until it is revoked', async () => {
    const { record } = await upload('draft.txt', Buffer.from('public words'));
    const renamed = await service.update({ id: record.id!, filename: 'final.txt', expiresAfter: 86_400 });
    expect(renamed).toMatchObject({ key: record.key, filename: 'final.txt', expiresAt: Math.floor(clock / 1000) * 1000 + 86_400_000 });
    const shared = await service.createPublicUrl({ id: record.id! });
    expect(shared.publicUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const fetched = await fetch(shared.publicUrl!);
    expect(await fetched.text()).toBe('public words');
    const revoked = await service.revokePublicUrl({ id: record.id! });
    expect(revoked.publicUrl).toBeNull();
    expect((await fetch(shared.publicUrl!)).status).toBe(404);
    expect((await service.get({ id: record.id! })).status).toBe('complete');
  });

  it('a bad filter comes back with the column the service points at', async () => {
    await expect(service.list({ sortBy: 'created_at', order: 'desc', limit: 10, filter: 'size_bytes > ' })).rejects.toMatchObject({
      error: { code: 'api_error', status: 400, message: expect.stringMatching(/column/i) },
    });
  });

  it('a cancel mid-upload leaves nothing on the service and records the attempt as cancelled', async () => {
    const before = (await service.list({ sortBy: 'created_at', order: 'desc', limit: 100 })).items.length;
    const { record } = await upload('cancel-me.bin', randomBytes(8 * 1024 * 1024), { abortAtFirstProgress: true });
    expect(record).toMatchObject({ status: 'cancelled', id: null });
    expect(getRun(db, record.runId!)?.status).toBe('cancelled');
    const after = await service.list({ sortBy: 'created_at', order: 'desc', limit: 100 });
    expect(after.items.length).toBe(before);
  });

  it('a connection that drops mid-upload is an error that says to retry; nothing is recorded as uploaded', async () => {
    // A second sandbox, stopped while the upload is under way.
    const doomed = await startSandbox({ keys: [key], tokenDelayMs: 0 });
    await connections.save({ name: 'Doomed', baseUrl: doomed.url, apiKey: key });
    const profile = connections.state().profiles.find((p) => p.name === 'Doomed')!;
    const path = join(dir, 'dropped.bin');
    writeFileSync(path, randomBytes(16 * 1024 * 1024));
    const ref = await userFiles.register(path);
    let closing: Promise<void> | null = null;
    const failure = await service
      .upload({ connectionId: profile.id, ref: ref.ref }, { signal: new AbortController().signal, emit: (c) => void (c.type === 'progress' && (closing ??= doomed.close())) })
      .catch((e: unknown) => e as { error: { code: string; message: string } });
    await closing;
    expect(failure).toMatchObject({ error: { code: 'network', message: expect.stringMatching(/dropped while sending dropped\.bin, after .* of 16 MiB; the upload did not finish\. Try again\./) } });
    const row = service.local({ limit: 10, query: 'dropped.bin' })[0]!;
    expect(row).toMatchObject({ status: 'failed', id: null });
    expect(getRun(db, row.runId!)?.status).toBe('error');
  });

  it('a file past its expiry on the sandbox clock reads as expired, offline and from the service', async () => {
    const { record } = await upload('short-lived.txt', Buffer.from('soon gone'), { expiresAfter: 3600 });
    clock += 3601 * 1000;
    expect(service.local({ limit: 10, query: 'short-lived' })[0]).toMatchObject({ status: 'expired', statusMessage: expect.stringMatching(/expired on/) });
    expect(await service.get({ id: record.id! })).toMatchObject({ status: 'expired' });
  });
});
