import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiResult } from '../../../../main/api/client';
import type { ApiError } from '../../../../main/api/errors';
import { ConnectionsService } from '../../../../main/services/connections-service';
import { DownloadTickets } from '../../../../main/services/download-tickets';
import type { FilesApi } from '../../../../main/families/files/files-deps';
import { FilesService } from '../../../../main/families/files/files-service';
import { openDatabase, closeDatabase, type Db } from '../../../../main/store/db';
import { createMemoryKeyStore } from '../../../../main/store/key-store';
import { getRun, searchRuns } from '../../../../main/store/runs';
import { WorkbenchFailure } from '../../../../shared/contract/errors';
import type { FileRecord, FileUploadChunk } from '../../../../shared/families/files/contract';
import type { FileObject } from '../../../../shared/wire/files';

const CAPTURED = { method: 'POST', url: 'http://sandbox/v1/files', headers: {}, body: null };
const META = { status: 200, headers: { 'x-request-id': 'req-1' }, requestId: 'req-1', ttfbMs: 3 };

function ok<T>(value: T): ApiResult<T> {
  return { ok: true, value, meta: META, captured: CAPTURED, retries: 0, totalMs: 5 };
}
function fail<T>(error: Partial<ApiError> & Pick<ApiError, 'kind'>): ApiResult<T> {
  const e: ApiError = { status: null, code: null, message: 'failed', requestId: null, ...error };
  return { ok: false, error: e, meta: e.status ? { ...META, status: e.status } : null, captured: CAPTURED, retries: 0, totalMs: 5 };
}
const fileObject = (id: string, filename: string, over: Partial<FileObject> = {}): FileObject => ({
  id,
  object: 'file',
  bytes: 1000,
  created_at: 1_700_000_000,
  expires_at: 1_700_003_600,
  filename,
  ...over,
});

/** A Files API whose answers each test scripts; calls are recorded. */
function scriptedApi() {
  const calls: { fn: string; args: unknown[] }[] = [];
  const api: FilesApi & { next: Partial<Record<keyof FilesApi, (...args: never[]) => unknown>> } = {
    next: {},
    async uploadFile(...args) {
      calls.push({ fn: 'uploadFile', args });
      return (api.next.uploadFile as unknown as FilesApi['uploadFile'])(...args);
    },
    async listFiles(...args) {
      calls.push({ fn: 'listFiles', args });
      return (api.next.listFiles as unknown as FilesApi['listFiles'])(...args);
    },
    async getFile(...args) {
      calls.push({ fn: 'getFile', args });
      return (api.next.getFile as unknown as FilesApi['getFile'])(...args);
    },
    async updateFile(...args) {
      calls.push({ fn: 'updateFile', args });
      return (api.next.updateFile as unknown as FilesApi['updateFile'])(...args);
    },
    async deleteFile(...args) {
      calls.push({ fn: 'deleteFile', args });
      return api.next.deleteFile ? (api.next.deleteFile as unknown as FilesApi['deleteFile'])(...args) : ok({ id: args[1], object: 'file' as const, deleted: true });
    },
    async createPublicUrl(...args) {
      calls.push({ fn: 'createPublicUrl', args });
      return (api.next.createPublicUrl as unknown as FilesApi['createPublicUrl'])(...args);
    },
    async revokePublicUrl(...args) {
      calls.push({ fn: 'revokePublicUrl', args });
      return ok({});
    },
    async downloadFileContent(...args) {
      calls.push({ fn: 'downloadFileContent', args });
      return (api.next.downloadFileContent as unknown as FilesApi['downloadFileContent'])(...args);
    },
  };
  return { api, calls };
}

describe('services/files-service', () => {
  let dir: string;
  let db: Db;
  let clock: number;
  let service: FilesService;
  let scripted: ReturnType<typeof scriptedApi>;
  let changed: FileRecord[];
  let tickets: DownloadTickets;
  let saveTarget: string | null | undefined;
  let released: string[] = [];
  const source = { path: '', name: 'notes.txt', size: 1000, type: 'text/plain' };

  function build(options: { electron?: boolean } = {}): void {
    const connections = new ConnectionsService({ db, keyStore: createMemoryKeyStore(), sandbox: { url: 'http://127.0.0.1:9', key: 'sk-test', port: 9, preferredPort: 9, preferredSource: 'default' }, emit: () => {} });
    service = new FilesService({
      db,
      connections,
      api: scripted.api,
      userFiles: {
        release: (ref) => (released.push(ref), true),
        resolve: (ref) => {
          if (ref !== 'ref_AAAAAAAAAAAAAAAAAAAA') throw new WorkbenchFailure({ code: 'not_found', message: 'This file reference is unknown or has expired; choose the file again.' });
          return source;
        },
      },
      emitChanged: (r) => changed.push(r),
      tickets,
      ...(options.electron ? { chooseSaveTarget: async () => saveTarget ?? null } : {}),
      now: () => clock,
    });
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wb-files-'));
    source.path = join(dir, 'notes.txt');
    writeFileSync(source.path, 'x'.repeat(1000));
    db = openDatabase(':memory:');
    clock = 1_700_000_000_000;
    scripted = scriptedApi();
    changed = [];
    saveTarget = undefined;
    released = [];
    tickets = new DownloadTickets({ dir: join(dir, 'downloads'), now: () => clock });
    build();
  });

  afterEach(() => {
    tickets.dispose();
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  });

  async function upload(expiresAfter?: number): Promise<{ record: FileRecord; chunks: FileUploadChunk[]; signal: AbortController }> {
    const chunks: FileUploadChunk[] = [];
    const controller = new AbortController();
    const record = await service.upload({ ref: 'ref_AAAAAAAAAAAAAAAAAAAA', ...(expiresAfter ? { expiresAfter } : {}) }, { signal: controller.signal, emit: (c) => chunks.push(c) });
    return { record, chunks, signal: controller };
  }

  describe('upload()', () => {
    it('records the run and the file, sends progress with speed, and ends complete with the service id', async () => {
      scripted.api.next.uploadFile = (async (_c: unknown, _f: unknown, o: { onProgress: (d: number, t: number | null) => void }) => {
        clock += 500;
        o.onProgress(500, 1000);
        clock += 500;
        o.onProgress(1000, 1000);
        return ok(fileObject('file_1', 'notes.txt'));
      }) as never;
      const { record, chunks } = await upload(7200);
      expect(record).toMatchObject({ id: 'file_1', status: 'complete', filename: 'notes.txt', bytes: 1000, expiresAt: 1_700_003_600_000 });
      expect(chunks[0]).toMatchObject({ type: 'started', key: record.key, filename: 'notes.txt', total: 1000 });
      expect(chunks.slice(1)).toEqual([
        { type: 'progress', sent: 500, total: 1000, bytesPerSecond: 1000 },
        { type: 'progress', sent: 1000, total: 1000, bytesPerSecond: 1000 },
      ]);
      expect(scripted.calls[0]!.args[1]).toEqual({ path: source.path, filename: 'notes.txt', contentType: 'text/plain', expiresAfter: 7200 });

      const run = getRun(db, record.runId!)!;
      expect(run).toMatchObject({ endpoint: 'files.upload', status: 'completed', promptPreview: 'notes.txt', outputPreview: 'file_1 · 1000 bytes' });
      expect(run.request.body).toEqual({
        multipart: [
          { name: 'expires_after', value: '7200' },
          { name: 'file', filename: 'notes.txt', contentType: 'text/plain', bytes: 1000 },
        ],
      });
      expect(JSON.stringify(run.request)).not.toContain('sk-test');
      expect(searchRuns(db, { query: 'notes' }).items.map((r) => r.id)).toEqual([run.id]);
      expect(changed.map((c) => c.status)).toEqual(['uploading', 'complete']);
      expect(released).toEqual(['ref_AAAAAAAAAAAAAAAAAAAA']);
    });

    it('refuses a file over the limit before recording or sending anything, saying the sizes', async () => {
      source.size = 60 * 1024 * 1024;
      await expect(upload()).rejects.toMatchObject({ error: { code: 'invalid_input', message: '"notes.txt" is 60 MiB; the service takes files up to 50 MiB. Split or compress it first.' } });
      expect(scripted.calls).toEqual([]);
      expect(service.local(undefined)).toEqual([]);
      source.size = 1000;
    });

    it('on cancel records the attempt as cancelled and deletes a file the service had already accepted', async () => {
      const controller = new AbortController();
      scripted.api.next.uploadFile = (async (_c: unknown, _f: unknown, o: { signal: AbortSignal; onProgress: (d: number, t: number) => void }) => {
        o.onProgress(400, 1000);
        controller.abort();
        return ok(fileObject('file_late', 'notes.txt'));
      }) as never;
      const record = await service.upload({ ref: 'ref_AAAAAAAAAAAAAAAAAAAA' }, { signal: controller.signal, emit: () => {} });
      expect(record).toMatchObject({
        status: 'cancelled',
        id: null,
        statusMessage: 'Cancelled as the upload finished: the service had received the whole file, and its copy (file_late) was deleted, so nothing was kept.',
      });
      expect(scripted.calls.map((c) => c.fn)).toEqual(['uploadFile', 'deleteFile']);
      expect(scripted.calls[1]!.args[1]).toBe('file_late');
      expect(getRun(db, record.runId!)?.status).toBe('cancelled');
      expect(released).toEqual([]);
    });

    it('on a cancel mid-upload says how far it got, and asks the service to delete nothing', async () => {
      const controller = new AbortController();
      scripted.api.next.uploadFile = (async (_c: unknown, _f: unknown, o: { onProgress: (d: number, t: number) => void }) => {
        o.onProgress(400, 1000);
        controller.abort();
        return fail({ kind: 'cancelled', message: 'Stopped.' });
      }) as never;
      const record = await service.upload({ ref: 'ref_AAAAAAAAAAAAAAAAAAAA' }, { signal: controller.signal, emit: () => {} });
      expect(record).toMatchObject({ status: 'cancelled', id: null, statusMessage: 'Cancelled after 400 bytes of 1000 bytes; nothing was kept on the service.' });
      expect(scripted.calls.map((c) => c.fn)).toEqual(['uploadFile']);
    });

    it('on a dropped connection records a failed upload and a run error, with the client\'s words', async () => {
      scripted.api.next.uploadFile = (async (_c: unknown, _f: unknown, o: { onProgress: (d: number, t: number) => void }) => {
        o.onProgress(300, 1000);
        return fail({ kind: 'network', message: 'The connection dropped while sending notes.txt, after 300 bytes of 1 KB; the upload did not finish. Try again.' });
      }) as never;
      const failure = await upload().catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(WorkbenchFailure);
      const message = (failure as WorkbenchFailure).error.message;
      expect(message).toBe('The connection dropped while sending notes.txt, after 300 bytes of 1 KB; the upload did not finish. Try again.');
      const [row] = service.local(undefined);
      expect(row).toMatchObject({ status: 'failed', id: null, statusMessage: message });
      expect(getRun(db, row!.runId!)).toMatchObject({ status: 'error', error: { code: 'network' } });
    });

    it('records an upload cancelled while the page staged it: a cancelled run and row, nothing asked of the service', () => {
      const record = service.uploadCancelled({ name: 'résumé "final".txt', size: 30_000_000, type: 'text/plain', staged: 600_000, expiresAfter: 3600 });
      expect(record).toMatchObject({
        status: 'cancelled',
        id: null,
        filename: 'résumé "final".txt',
        bytes: 30_000_000,
        statusMessage: 'Cancelled while it was handed to the workbench (585.9 KiB of 28.6 MiB); nothing was sent to the service and nothing was kept.',
      });
      expect(scripted.calls).toEqual([]);
      const run = getRun(db, record.runId!);
      expect(run).toMatchObject({ status: 'cancelled', endpoint: 'files.upload', promptPreview: 'résumé "final".txt' });
      expect(run?.request.body).toEqual({ multipart: [{ name: 'expires_after', value: '3600' }, { name: 'file', filename: 'résumé "final".txt', contentType: 'text/plain', bytes: 30_000_000 }] });
      expect(changed.at(-1)).toEqual(record);
    });

    it('reports a vanished file reference without recording anything', async () => {
      await expect(service.upload({ ref: 'ref_BBBBBBBBBBBBBBBBBBBB' }, { signal: new AbortController().signal, emit: () => {} })).rejects.toMatchObject({ error: { code: 'not_found' } });
      expect(service.local(undefined)).toEqual([]);
    });
  });

  describe('list()', () => {
    it('records every listed file and ends the pages when one is shorter than the limit', async () => {
      scripted.api.next.listFiles = (async () => ok({ data: [fileObject('file_a', 'a.txt'), fileObject('file_b', 'b.txt')], pagination_token: 'file_b' })) as never;
      const full = await service.list({ sortBy: 'size', order: 'asc', limit: 2, filter: ' size_bytes > 10 ' });
      expect(full.items.map((f) => f.id)).toEqual(['file_a', 'file_b']);
      expect(full.nextToken).toBe('file_b');
      expect(scripted.calls[0]!.args[1]).toEqual({ limit: 2, order: 'asc', sort_by: 'size', filter: 'size_bytes > 10' });
      const last = await service.list({ sortBy: 'size', order: 'asc', limit: 3, paginationToken: 'file_b' });
      expect(last.nextToken).toBeNull();
      expect(service.local({ limit: 10, query: 'b.txt' }).map((f) => f.id)).toEqual(['file_b']);
    });

    it('passes the service\'s words about a bad filter through', async () => {
      scripted.api.next.listFiles = (async () => fail({ kind: 'http', status: 400, message: 'The service rejected the request (400): filter: expected a value at column 12' })) as never;
      await expect(service.list({ sortBy: 'created_at', order: 'desc', limit: 20, filter: 'size_bytes >' })).rejects.toMatchObject({ error: { code: 'api_error', status: 400, message: expect.stringContaining('column 12') } });
    });
  });

  describe('get() / remove()', () => {
    it('marks a known file expired when the service says 404 after its expiry, deleted before it', async () => {
      scripted.api.next.listFiles = (async () => ok({ data: [fileObject('file_a', 'a.txt'), fileObject('file_b', 'b.txt', { expires_at: null })], pagination_token: null })) as never;
      await service.list({ sortBy: 'created_at', order: 'desc', limit: 20 });
      scripted.api.next.getFile = (async () => fail({ kind: 'http', status: 404, message: 'Not found (404)' })) as never;
      clock = 1_700_003_600_000 + 1;
      expect(await service.get({ id: 'file_a' })).toMatchObject({ status: 'expired', statusMessage: expect.stringMatching(/expired on 2023-11-14 23:13 UTC/) });
      expect(await service.get({ id: 'file_b' })).toMatchObject({ status: 'deleted', statusMessage: expect.stringMatching(/no longer has this file/) });
      await expect(service.get({ id: 'file_unknown' })).rejects.toMatchObject({ error: { code: 'not_found' } });
    });

    it('marks a file expired when the service says it expired, though our clock is not yet past its expiry', async () => {
      scripted.api.next.listFiles = (async () => ok({ data: [fileObject('file_a', 'a.txt'), fileObject('file_b', 'b.txt', { expires_at: null })], pagination_token: null })) as never;
      await service.list({ sortBy: 'created_at', order: 'desc', limit: 20 });
      const saysExpired = 'Not found (404): File file_a has expired (it passed its expires_at) and was removed.. Check the model id or resource id.';
      scripted.api.next.getFile = (async () => fail({ kind: 'http', status: 404, message: saysExpired })) as never;
      expect(await service.get({ id: 'file_a' })).toMatchObject({ status: 'expired', statusMessage: expect.stringMatching(/expired on 2023-11-14 23:13 UTC/) });
      scripted.api.next.getFile = (async () => fail({ kind: 'http', status: 404, message: saysExpired.replace('file_a', 'file_b') })) as never;
      expect(await service.get({ id: 'file_b' })).toMatchObject({ status: 'expired', statusMessage: expect.stringMatching(/service says this file expired/) });
    });

    it('a download 404 in the service\'s words "expired" marks the file expired, not deleted', async () => {
      scripted.api.next.listFiles = (async () => ok({ data: [fileObject('file_a', 'a.txt')], pagination_token: null })) as never;
      await service.list({ sortBy: 'created_at', order: 'desc', limit: 20 });
      scripted.api.next.downloadFileContent = (async () => fail({ kind: 'http', status: 404, message: 'Not found (404): File file_a has expired and was removed.' })) as never;
      const failure = await service.download({ id: 'file_a' }, { signal: new AbortController().signal, emit: () => {} }).catch((e: unknown) => e);
      expect((failure as WorkbenchFailure).error).toMatchObject({ code: 'not_found', message: expect.stringMatching(/expired on/) });
      expect(service.local(undefined)[0]?.status).toBe('expired');
    });

    it('deletes on the service and keeps the record, marked deleted', async () => {
      scripted.api.next.getFile = (async () => ok(fileObject('file_a', 'a.txt'))) as never;
      await service.get({ id: 'file_a' });
      clock += 60_000;
      const removed = await service.remove({ id: 'file_a' });
      // No date in the words: the page writes lastSeenAt (the service's confirmation) in its own format.
      expect(removed).toMatchObject({ id: 'file_a', status: 'deleted', statusMessage: 'Deleted from the service.', lastSeenAt: clock });
      expect(service.local(undefined)).toEqual([removed]);
    });
  });

  describe('update() / public URL', () => {
    it('renames through PUT and records public URLs until revoked', async () => {
      scripted.api.next.updateFile = (async () => ok(fileObject('file_a', 'renamed.txt'))) as never;
      expect(await service.update({ id: 'file_a', filename: 'renamed.txt', expiresAfter: null })).toMatchObject({ filename: 'renamed.txt' });
      expect(scripted.calls[0]!.args.slice(1)).toEqual(['file_a', { filename: 'renamed.txt', expires_after: null }]);
      scripted.api.next.createPublicUrl = (async () => ok({ public_url: 'http://127.0.0.1:9/public/t/file_a', public_url_expires_at: 1_700_000_600 })) as never;
      expect(await service.createPublicUrl({ id: 'file_a' })).toMatchObject({ publicUrl: 'http://127.0.0.1:9/public/t/file_a', publicUrlExpiresAt: 1_700_000_600_000 });
      expect(await service.revokePublicUrl({ id: 'file_a' })).toMatchObject({ publicUrl: null });
    });
  });

  describe('download()', () => {
    beforeEach(async () => {
      scripted.api.next.getFile = (async () => ok(fileObject('file_a', 'a.txt'))) as never;
      await service.get({ id: 'file_a' });
      scripted.api.next.downloadFileContent = (async (_c: unknown, _id: unknown, dest: string, o: { onProgress: (d: number, t: number) => void }) => {
        writeFileSync(dest, 'hello');
        o.onProgress(5, 5);
        return ok({ bytes: 5 });
      }) as never;
    });

    it('browser mode: writes a private temporary file and hands out a one-time link to it', async () => {
      const result = await service.download({ id: 'file_a' }, { signal: new AbortController().signal, emit: () => {} });
      expect(result).toMatchObject({ filename: 'a.txt', bytes: 5, url: expect.stringMatching(/^\/downloads\/[A-Za-z0-9_-]{43}$/) });
      const token = result.url!.split('/').pop()!;
      const ticket = tickets.take(token)!;
      expect(readFileSync(ticket.path, 'utf8')).toBe('hello');
      expect(tickets.take(token)).toBeNull();
    });

    it('Electron: saves where the dialog says, and does nothing when the dialog is closed', async () => {
      build({ electron: true });
      saveTarget = join(dir, 'chosen.txt');
      expect(await service.download({ id: 'file_a' }, { signal: new AbortController().signal, emit: () => {} })).toEqual({ filename: 'a.txt', bytes: 5, savedTo: saveTarget });
      expect(readFileSync(saveTarget, 'utf8')).toBe('hello');
      saveTarget = null;
      expect(await service.download({ id: 'file_a' }, { signal: new AbortController().signal, emit: () => {} })).toEqual({ filename: 'a.txt', bytes: 0, cancelled: true });
      expect(scripted.calls.filter((c) => c.fn === 'downloadFileContent')).toHaveLength(1);
    });

    it('a 404 marks the file gone and leaves no temporary file behind', async () => {
      scripted.api.next.downloadFileContent = (async (_c: unknown, _id: unknown, dest: string) => {
        writeFileSync(dest, 'partial');
        return fail({ kind: 'http', status: 404, message: 'Not found (404)' });
      }) as never;
      const failure = await service.download({ id: 'file_a' }, { signal: new AbortController().signal, emit: () => {} }).catch((e: unknown) => e);
      expect((failure as WorkbenchFailure).error).toMatchObject({ code: 'not_found', message: expect.stringMatching(/no longer has this file/) });
      expect(service.local(undefined)[0]?.status).toBe('deleted');
      await expect.poll(() => existsSync(join(dir, 'downloads')) && readdirSync(join(dir, 'downloads'))).toEqual([]);
    });
  });
});

