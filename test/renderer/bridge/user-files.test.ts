// fileRefsFrom in both shells: browser mode POSTs each file to /stage with the page token and
// reports upload progress (XMLHttpRequest mocked); Electron hands the File to the preload.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkbenchFailure } from '@shared/contract/errors';
import type { FileRef, WorkbenchFilesApi } from '@shared/contract/user-files';
import { takeAccessToken } from '@/bridge/access-token';
import { chooseFiles, fileRefsFrom, stageFile, stagesOverHttp, type UploadProgress } from '@/bridge/user-files';

type Answer = { status: number; body: string } | 'network-error' | 'hang';

class FakeXhr {
  static sent: FakeXhr[] = [];
  static answers: Answer[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  status = 0;
  responseText = '';
  aborted = false;
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: Blob) {
    this.body = body;
    FakeXhr.sent.push(this);
    const answer = FakeXhr.answers.shift() ?? 'hang';
    if (answer === 'hang') {
      this.upload.onprogress?.({ loaded: Math.floor(body.size / 2), total: body.size, lengthComputable: true });
      return;
    }
    queueMicrotask(() => {
      this.upload.onprogress?.({ loaded: body.size, total: body.size, lengthComputable: true });
      if (answer === 'network-error') return this.onerror?.();
      this.status = answer.status;
      this.responseText = answer.body;
      this.onload?.();
    });
  }
  abort() {
    this.aborted = true;
    queueMicrotask(() => this.onabort?.());
  }
}

const refOf = (name: string, size: number, n = 1): FileRef => ({ ref: `ref_${'A'.repeat(21)}${n}`, name, size, type: '' });
const noStorage = { getItem: () => null, setItem: () => {} };

/** What the page fetched (a cancel's DELETE): recorded, never sent (happy-dom would try a real socket). */
let fetched: Array<{ url: string; init: RequestInit }> = [];

beforeEach(() => {
  FakeXhr.sent = [];
  FakeXhr.answers = [];
  fetched = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    fetched.push({ url, init });
    return new Response('{"aborted":0,"released":1}');
  });
  takeAccessToken({ location: { hash: '#token=page-token-123', pathname: '/', search: '' }, history: { state: null, replaceState: () => {} }, storage: noStorage });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  delete window.workbenchFiles;
});

describe('user-files', () => {
  describe('fileRefsFrom() in browser mode', () => {
    it('POSTs each file’s bytes to /stage with the token, its name and type, and reports progress', async () => {
      const a = new File(['hello'], 'résumé.txt', { type: 'text/plain' });
      const b = new File(['0123456789'], 'b.bin');
      FakeXhr.answers = [
        { status: 200, body: JSON.stringify(refOf('résumé.txt', 5, 1)) },
        { status: 200, body: JSON.stringify(refOf('b.bin', 10, 2)) },
      ];
      const progress: UploadProgress[] = [];
      const refs = await fileRefsFrom([a, b], { onProgress: (p) => progress.push(p) });
      expect(refs).toEqual([refOf('résumé.txt', 5, 1), refOf('b.bin', 10, 2)]);
      expect(FakeXhr.sent.map((x) => [x.method, x.url, x.headers, x.body])).toEqual([
        ['POST', '/stage', { Authorization: 'Bearer page-token-123', 'X-Workbench-File-Name': 'r%C3%A9sum%C3%A9.txt', 'X-Workbench-Upload-Id': expect.stringMatching(/^[0-9a-f]{32}$/), 'Content-Type': 'text/plain' }, a],
        ['POST', '/stage', { Authorization: 'Bearer page-token-123', 'X-Workbench-File-Name': 'b.bin', 'X-Workbench-Upload-Id': expect.stringMatching(/^[0-9a-f]{32}$/) }, b],
      ]);
      expect(progress).toEqual([
        { index: 0, name: 'résumé.txt', loaded: 0, total: 5 },
        { index: 0, name: 'résumé.txt', loaded: 5, total: 5 },
        { index: 0, name: 'résumé.txt', loaded: 5, total: 5 },
        { index: 1, name: 'b.bin', loaded: 0, total: 10 },
        { index: 1, name: 'b.bin', loaded: 10, total: 10 },
        { index: 1, name: 'b.bin', loaded: 10, total: 10 },
      ]);
    });

    it('aborts the running upload when the signal fires, rejecting cancelled', async () => {
      const controller = new AbortController();
      const progress: UploadProgress[] = [];
      const running = fileRefsFrom([new File(['x'.repeat(100)], 'big.bin')], { signal: controller.signal, onProgress: (p) => progress.push(p) });
      await Promise.resolve();
      expect(progress.at(-1)).toEqual({ index: 0, name: 'big.bin', loaded: 50, total: 100 });
      controller.abort();
      await expect(running).rejects.toMatchObject({ error: { code: 'cancelled', message: 'The upload of "big.bin" was cancelled.' } });
      expect(FakeXhr.sent[0].aborted).toBe(true);
    });

    it('names each upload, and a cancel also asks main to drop what that upload staged (a stage that finished as Cancel was pressed)', async () => {
      const controller = new AbortController();
      const running = fileRefsFrom([new File(['x'.repeat(100)], 'big.bin')], { signal: controller.signal });
      await Promise.resolve();
      const id = FakeXhr.sent[0].headers['X-Workbench-Upload-Id'];
      expect(id).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
      controller.abort();
      await expect(running).rejects.toMatchObject({ error: { code: 'cancelled' } });
      expect(fetched).toEqual([{ url: `/stage/${id}`, init: { method: 'DELETE', headers: { Authorization: 'Bearer page-token-123' }, keepalive: true } }]);
    });

    it('stageFile() is one file’s first leg: the bytes handed over as they go, and Cancel aborts the POST', async () => {
      expect(stagesOverHttp()).toBe(true);
      const controller = new AbortController();
      const loaded: number[] = [];
      const running = stageFile(new File(['x'.repeat(100)], 'big.bin'), (n) => loaded.push(n), controller.signal);
      await Promise.resolve();
      expect(loaded).toEqual([0, 50]);
      controller.abort();
      await expect(running).rejects.toMatchObject({ error: { code: 'cancelled' } });
      expect(FakeXhr.sent[0].aborted).toBe(true);
    });

    it('passes main’s error on (a 413 over the limit) and says when the connection dropped', async () => {
      FakeXhr.answers = [
        { status: 413, body: JSON.stringify({ error: { code: 'invalid_input', message: '"huge.iso" is larger than the 4 GiB upload limit.' } }) },
        'network-error',
      ];
      await expect(fileRefsFrom([new File(['x'], 'huge.iso')])).rejects.toMatchObject({
        error: { code: 'invalid_input', message: '"huge.iso" is larger than the 4 GiB upload limit.' },
      });
      const dropped = await fileRefsFrom([new File(['x'], 'a.txt')]).catch((err: WorkbenchFailure) => err.error);
      expect(dropped).toEqual({ code: 'network', message: 'The upload of "a.txt" was interrupted (the connection to the workbench dropped). Try again.' });
    });
  });

  describe('fileRefsFrom() in Electron', () => {
    it('hands each File to window.workbenchFiles and sends nothing over HTTP', async () => {
      const fromFile = vi.fn<WorkbenchFilesApi['fromFile']>(async (file) => ({ ok: true, value: refOf(file.name, file.size) }));
      window.workbenchFiles = { fromFile };
      const file = new File(['abc'], 'drop.txt');
      expect(await fileRefsFrom([file])).toEqual([refOf('drop.txt', 3)]);
      expect(fromFile).toHaveBeenCalledWith(file);
      expect(FakeXhr.sent).toEqual([]);
    });

    it('rejects with the error value the preload answered, code and all', async () => {
      const error = { code: 'invalid_input' as const, message: '"photos" is a folder; choose the files inside it instead.' };
      window.workbenchFiles = { fromFile: async () => ({ ok: false, error }) };
      await expect(fileRefsFrom([new File([], 'photos')])).rejects.toMatchObject({ error });
    });
  });

  describe('chooseFiles()', () => {
    it('uses main’s dialog where there is one', async () => {
      const pick = vi.fn(async () => [refOf('a.txt', 1)]);
      expect(await chooseFiles({ userFiles: { pick, release: vi.fn() } }, { multiple: true, title: 'Upload' })).toEqual([refOf('a.txt', 1)]);
      expect(pick).toHaveBeenCalledWith({ multiple: true, title: 'Upload' });
    });

    it('falls back to the page’s file input and an upload when main has no dialog', async () => {
      const unsupported = new WorkbenchFailure({ code: 'unsupported', message: 'Browser mode has no file dialog of its own.' });
      const chosen = new File(['abc'], 'chosen.txt');
      const clicked: HTMLInputElement[] = [];
      vi.spyOn(HTMLInputElement.prototype, 'click').mockImplementation(function (this: HTMLInputElement) {
        clicked.push(this);
        Object.defineProperty(this, 'files', { value: [chosen] });
        this.dispatchEvent(new Event('change'));
      });
      FakeXhr.answers = [{ status: 200, body: JSON.stringify(refOf('chosen.txt', 3)) }];
      const api = { userFiles: { pick: async () => Promise.reject(unsupported), release: vi.fn() } };
      expect(await chooseFiles(api, { multiple: true, accept: '.txt' })).toEqual([refOf('chosen.txt', 3)]);
      expect(clicked.map((i) => [i.type, i.multiple, i.accept])).toEqual([['file', true, '.txt']]);
      expect(FakeXhr.sent[0].body).toBe(chosen);
    });

    it('gives [] when the page’s chooser is cancelled, and passes other errors on', async () => {
      vi.spyOn(HTMLInputElement.prototype, 'click').mockImplementation(function (this: HTMLInputElement) {
        this.dispatchEvent(new Event('cancel'));
      });
      const unsupported = new WorkbenchFailure({ code: 'unsupported', message: 'no dialog' });
      expect(await chooseFiles({ userFiles: { pick: async () => Promise.reject(unsupported), release: vi.fn() } })).toEqual([]);
      const broken = new WorkbenchFailure({ code: 'not_found', message: 'gone' });
      await expect(chooseFiles({ userFiles: { pick: async () => Promise.reject(broken), release: vi.fn() } })).rejects.toBe(broken);
      expect(FakeXhr.sent).toEqual([]);
    });
  });
});
