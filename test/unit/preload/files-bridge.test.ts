// window.workbenchFiles end to end over the in-memory IPC pair: the preload (with a mocked
// webUtils) turns a dropped File into a path only it can read, main registers it over the one
// private channel; a File made in the page is streamed over the contract (`userFiles.upload`, a
// session through the real host and IPC gate) and staged byte for byte; other frames are refused.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { FileRef, WorkbenchFilesApi } from '../../../shared/contract/user-files';
import { IPC_FILES, IPC_STAGE_CHUNK_BYTES } from '../../../shared/contract/user-files';
import { UserFiles } from '../../../main/services/user-files';
import { stageUpload } from '../../../main/services/upload-session';
import { createHost } from '../../../main/host/host';
import { contract } from '../../../shared/contract/index';
import { createFakeHandlers } from '../main/host/fake-handlers';
import { createFakeWindow, fakeIpcMain } from '../../integration/transports/fake-electron';
import { createReplyApi } from '../../../shared/contract/bridge';
import { createIpcTransport } from '../../../preload/ipc-transport';

const page = vi.hoisted(() => ({ exposed: new Map<string, unknown>(), paths: new WeakMap<object, string>() }));
const ours = createFakeWindow();

vi.mock('electron', async () => ({
  contextBridge: { exposeInMainWorld: (key: string, value: unknown) => page.exposed.set(key, value) },
  ipcRenderer: ours.ipcRenderer,
  ipcMain: (await import('../../integration/transports/fake-electron')).fakeIpcMain,
  webUtils: { getPathForFile: (file: object) => page.paths.get(file) ?? '' },
}));

await import('../../../preload/index');
const { setupFileIpc } = await import('../../../main/electron/file-ipc');
const { setupIpc } = await import('../../../main/electron/ipc');

const root = mkdtempSync(join(tmpdir(), 'wb-preload-files-'));
const userFiles = new UserFiles({ stagingDir: join(root, 'staging'), log: () => {} });
const logs: string[] = [];
const gate = setupFileIpc({ userFiles, log: (line) => logs.push(line) });
gate.addWindow(ours.window);
// The contract side, as the app wires it: userFiles.upload stages through the same UserFiles.
const fake = createFakeHandlers();
const host = createHost({
  contract,
  handlers: { ...fake.handlers, userFiles: { ...fake.handlers.userFiles, upload: (start, ctx) => stageUpload(userFiles, start, ctx.messages, ctx.signal) } },
});
const ipc = setupIpc({ host, contract, log: () => {} });
ipc.addWindow(ours.window);
const api = page.exposed.get('workbenchFiles') as WorkbenchFilesApi;

afterAll(() => {
  gate.dispose();
  ipc.dispose();
  host.dispose();
  userFiles.dispose();
  rmSync(root, { recursive: true, force: true });
});

/** The value of an ok Reply (the test fails with the error otherwise). */
function value<T>(reply: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!reply.ok) throw new Error(`expected a value, got ${JSON.stringify(reply.error)}`);
  return reply.value;
}

describe('files-bridge', () => {
  describe('window.workbenchFiles.fromFile()', () => {
    it('registers a dropped file by the path webUtils gives, without reading its bytes in the page', async () => {
      const path = join(root, 'dropped.csv');
      writeFileSync(path, 'a,b,c\n');
      const dropped = new File(['(the page’s copy is never read)'], 'dropped.csv', { type: 'text/csv' });
      page.paths.set(dropped, path);
      const ref = value(await api.fromFile(dropped));
      expect(ref).toEqual({ ref: expect.stringMatching(/^ref_/), name: 'dropped.csv', size: 6, type: '' });
      expect(userFiles.resolve(ref.ref).path).toBe(path);
    });

    it('streams a File made in the page in chunks and stages the same bytes', async () => {
      const bytes = randomBytes(2 * IPC_STAGE_CHUNK_BYTES + 123);
      const made = new File([bytes], 'made.bin', { type: 'application/octet-stream' });
      const ref: FileRef = value(await api.fromFile(made));
      expect(ref).toMatchObject({ name: 'made.bin', size: bytes.length, type: 'application/octet-stream' });
      expect(readFileSync(userFiles.resolve(ref.ref).path).equals(bytes)).toBe(true);
    });

    it('streams an empty File too', async () => {
      const ref = value(await api.fromFile(new File([], 'empty.txt', { type: 'text/plain' })));
      expect(ref).toMatchObject({ name: 'empty.txt', size: 0 });
    });

    it('answers an error value (code and message) when the dropped path is a folder', async () => {
      const folder = new File([], 'photos');
      page.paths.set(folder, root);
      const reply = await api.fromFile(folder);
      expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/"wb-preload-files-.*is a folder; choose the files inside it instead/) } });
    });

    it('aborts the upload and keeps nothing when a File cannot be read midway', async () => {
      const before = readdirSync(join(root, 'staging')).length;
      const failing = {
        name: 'flaky.bin',
        type: '',
        size: 3 * IPC_STAGE_CHUNK_BYTES,
        slice: (start = 0) => ({
          arrayBuffer: async () => {
            if (start > 0) throw new Error('NotReadableError: the file could not be read');
            return new ArrayBuffer(IPC_STAGE_CHUNK_BYTES);
          },
        }),
      };
      expect(await api.fromFile(failing)).toMatchObject({ ok: false, error: { code: 'internal', message: expect.stringContaining('"flaky.bin" could not be read: NotReadableError') } });
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(readdirSync(join(root, 'staging'))).toHaveLength(before);
    });
  });

  describe('private channels', () => {
    it('refuse a frame that is not our window’s main frame, and a window never added', async () => {
      const sub = { processId: 999, routingId: 7, url: 'app://workbench/index.html' };
      await expect(ours.ipcRenderer.invokeFrom(sub, IPC_FILES.fromPath, '/etc/passwd')).rejects.toThrow(/only available to the workbench window/);
      const stranger = createFakeWindow('https://evil.example/');
      await expect(stranger.ipcRenderer.invoke(IPC_FILES.fromPath, '/etc/passwd')).rejects.toThrow(/only available/);
      expect(logs.filter((line) => line.includes('refused'))).toHaveLength(2);
    });

    it('leave the private channel to paths alone: bytes take the contract', () => {
      expect([...fakeIpcMain.handlers.keys()].filter((c) => c.startsWith('workbench-files:'))).toEqual([IPC_FILES.fromPath]);
      expect(fakeIpcMain.handlers.has('userFiles.upload')).toBe(true);
    });

    it('abort a window’s unfinished upload when it closes, removing the temporary file', async () => {
      const closing = createFakeWindow();
      gate.addWindow(closing.window);
      ipc.addWindow(closing.window);
      const staging = join(root, 'staging');
      const parts = () => readdirSync(staging).filter((f) => f.endsWith('.part'));
      // The test before aborted an upload; its temporary file goes asynchronously.
      for (let i = 0; i < 100 && parts().length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      const upload = createReplyApi(createIpcTransport(closing.ipcRenderer)).userFiles.upload({ name: 'half.bin', type: '', size: 8 }, () => {});
      expect(await upload.send({ data: new Uint8Array(4) })).toEqual({ ok: true, value: null });
      for (let i = 0; i < 100 && parts().length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(parts()).toHaveLength(1);
      closing.webContents.destroy();
      for (let i = 0; i < 100 && parts().length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(parts()).toEqual([]);
    });
  });
});
