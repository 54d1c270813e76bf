// Files from the page in Electron, end to end over the in-memory IPC pair: the preload (with a
// mocked webUtils) names a dropped File by a path only it can read and main registers it over the
// one private channel (paths only); a File made in the page has none (null), and the page's own
// upload (renderer/src/bridge/upload-bytes.ts, the same code as browser mode) streams its bytes
// over the preload's `window.workbench` (`userFiles.upload`, a session through the real host and
// IPC gate), staged byte for byte; other frames are refused.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { FileRef, WorkbenchFilesApi } from '../../../shared/contract/user-files';
import { IPC_FILES } from '../../../shared/contract/user-files';
import { BYTES_PER_MESSAGE } from '../../../shared/contract/bytes';
import type { WorkbenchReplyApi } from '../../../shared/contract/api';
import { fromReplyApi } from '../../../shared/contract/page-api';
import { uploadBytes } from '../../../renderer/src/bridge/upload-bytes';
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
// The page's api over the preload's window.workbench, as renderer/src/bridge/index.ts builds it.
const workbench = fromReplyApi(page.exposed.get('workbench') as WorkbenchReplyApi);

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
  describe('window.workbenchFiles.pathRef()', () => {
    it('registers a dropped file by the path webUtils gives, without reading its bytes in the page', async () => {
      const path = join(root, 'dropped.csv');
      writeFileSync(path, 'a,b,c\n');
      const dropped = new File(['(the page’s copy is never read)'], 'dropped.csv', { type: 'text/csv' });
      page.paths.set(dropped, path);
      const ref = value(await api.pathRef(dropped))!;
      expect(ref).toEqual({ ref: expect.stringMatching(/^ref_/), name: 'dropped.csv', size: 6, type: '' });
      expect(userFiles.resolve(ref.ref).path).toBe(path);
    });

    it('answers null for a File made in the page (no path): its bytes are the page’s to upload', async () => {
      expect(await api.pathRef(new File(['x'], 'made.txt'))).toEqual({ ok: true, value: null });
    });

    it('answers an error value (code and message) when the dropped path is a folder', async () => {
      const folder = new File([], 'photos');
      page.paths.set(folder, root);
      const reply = await api.pathRef(folder);
      expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/"wb-preload-files-.*is a folder; choose the files inside it instead/) } });
    });
  });

  describe('the page’s upload over window.workbench (userFiles.upload)', () => {
    it('streams a File made in the page in chunks, reporting progress, and stages the same bytes', async () => {
      const bytes = randomBytes(2 * BYTES_PER_MESSAGE + 123);
      const made = new File([bytes], 'made.bin', { type: 'application/octet-stream' });
      const progress: number[] = [];
      const ref: FileRef = await uploadBytes(workbench, made, (n) => progress.push(n));
      expect(ref).toMatchObject({ name: 'made.bin', size: bytes.length, type: 'application/octet-stream' });
      expect(readFileSync(userFiles.resolve(ref.ref).path).equals(bytes)).toBe(true);
      expect(progress).toEqual([BYTES_PER_MESSAGE, 2 * BYTES_PER_MESSAGE, bytes.length]);
    });

    it('streams an empty File too', async () => {
      const ref = await uploadBytes(workbench, new File([], 'empty.txt', { type: 'text/plain' }), () => {});
      expect(ref).toMatchObject({ name: 'empty.txt', size: 0 });
    });

    it('aborts the upload and keeps nothing when a File cannot be read midway', async () => {
      const before = readdirSync(join(root, 'staging')).length;
      const failing = {
        name: 'flaky.bin',
        type: '',
        size: 3 * BYTES_PER_MESSAGE,
        slice: (start = 0) => ({
          arrayBuffer: async () => {
            if (start > 0) throw new Error('NotReadableError: the file could not be read');
            return new ArrayBuffer(BYTES_PER_MESSAGE);
          },
        }),
      };
      await expect(uploadBytes(workbench, failing, () => {})).rejects.toMatchObject({ error: { code: 'internal', message: expect.stringContaining('"flaky.bin" could not be read: NotReadableError') } });
      // The session's end was awaited: its partial file is already gone.
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
