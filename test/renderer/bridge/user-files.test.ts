// fileRefsFrom in both shells: every file's bytes go through the contract's `userFiles.upload`
// session (a fake session here that holds each slice until the test lets it through: main's
// back-pressure), with progress as main takes them. Browser mode posts the File's slices unread
// over the bytes lane the session's ticket names (a fake lane here, routed to the same session);
// Electron first asks the preload for a dropped file's path reference and sends the bytes of a
// File that has none in the session's own messages.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WorkbenchFailure, type WorkbenchError } from '@shared/contract/errors';
import type { FileRef, WorkbenchFilesApi } from '@shared/contract/user-files';
import { LANE_SLICE_BYTES } from '@/bridge/upload-bytes';
import { setPageLane } from '@/bridge/upload-lane';
import { UPLOAD_LANE_WINDOW } from '@shared/contract/user-files';
import { chooseFiles, fileRefsFrom, stageFileWith, stagesBytes, type UploadApi, type UploadProgress } from '@/bridge/user-files';

const refOf = (name: string, size: number, n = 1): FileRef => ({ ref: `ref_${'A'.repeat(21)}${n}`, name, size, type: '' });

interface FakeUpload {
  input: { name: string; type: string; size: number };
  received: number[];
  /** How each slice came: unread over the lane (browser mode) or as bytes in a message (Electron). */
  kinds: Array<'lane' | 'bytes'>;
  closed: boolean;
  cancelled: boolean;
  /** Lets the held sends through (main took them). */
  take(): void;
  /** Ends the session as main would: with a ref, or an error. */
  finish(outcome: FileRef | WorkbenchError): void;
}

/** A fake `userFiles` whose uploads hold every send until `take()` (or `autoTake`). */
function fakeApi(options: { autoTake?: boolean; failWith?: WorkbenchError; dropWith?: WorkbenchError } = {}) {
  const uploads: FakeUpload[] = [];
  const released: string[] = [];
  const lanes = new Map<string, (length: number, kind: 'lane') => Promise<void>>();
  const api: UploadApi & { userFiles: { pick: () => Promise<FileRef[]> } } = {
    userFiles: {
      pick: async () => Promise.reject(new WorkbenchFailure({ code: 'unsupported', message: 'no dialog' })),
      release: async ({ ref }) => (released.push(ref), { released: true }),
      upload: (input, onChunk) => {
        let settle: (outcome: FileRef | WorkbenchError) => void = () => {};
        const result = new Promise<FileRef>((resolve, reject) => {
          settle = (o) => ('ref' in o ? resolve(o) : reject(new WorkbenchFailure(o)));
        });
        const held: Array<() => void> = [];
        const upload: FakeUpload = {
          input,
          received: [],
          kinds: [],
          closed: false,
          cancelled: false,
          take: () => held.splice(0).forEach((go) => go()),
          finish: (o) => settle(o),
        };
        uploads.push(upload);
        let total = 0;
        const receive = (length: number, kind: 'lane' | 'bytes') =>
          new Promise<void>((resolve, reject) => {
            if (upload.cancelled) return reject(new WorkbenchFailure({ code: 'cancelled', message: 'ended' }));
            // The connection went (a lane request the browser could not send): all of it fails.
            if (options.dropWith) {
              settle(options.dropWith);
              return reject(new WorkbenchFailure(options.dropWith));
            }
            if (options.failWith && upload.received.length === 1) {
              settle(options.failWith);
              return reject(new WorkbenchFailure({ code: 'cancelled', message: 'userFiles.upload ended before it read this message.' }));
            }
            upload.kinds.push(kind);
            upload.received.push(length);
            total += length;
            held.push(resolve);
            if (options.autoTake) upload.take();
          });
        const ticket = `ticket-${uploads.length}`;
        lanes.set(ticket, receive);
        if ('lane' in input && input.lane) onChunk({ lane: ticket });
        return {
          id: `upload-${uploads.length}`,
          result,
          send: ({ data }) => receive(data.byteLength, 'bytes'),
          close: async () => {
            upload.closed = true;
            if (options.autoTake) settle({ ref: `ref_${'B'.repeat(21)}${uploads.length}`, name: input.name, size: total, type: input.type });
          },
          cancel: async () => {
            upload.cancelled = true;
            settle({ code: 'cancelled', message: `The upload of "${input.name}" was cancelled.` });
          },
        };
      },
    },
  };
  // Browser mode's lane: each slice posted unread, to the session its ticket names.
  setPageLane(async (ticket, _index, body) => {
    const receive = lanes.get(ticket);
    if (!receive) throw new WorkbenchFailure({ code: 'not_found', message: `no upload has ticket ${ticket}` });
    await receive((body as Blob).size, 'lane');
  });
  return { api, uploads, released };
}

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 1));
  expect(condition()).toBe(true);
};

afterEach(() => {
  vi.restoreAllMocks();
  delete window.workbenchFiles;
  setPageLane(null);
});

describe('user-files', () => {
  describe('fileRefsFrom() in browser mode', () => {
    // Browser mode posts the File's slices unread, LANE_SLICE_BYTES each, UPLOAD_LANE_WINDOW at a time.
    const SLICE = LANE_SLICE_BYTES;
    it('uploads each file over userFiles.upload in 4 MiB slices, with its name and type, progress as main takes them', async () => {
      const { api, uploads } = fakeApi({ autoTake: true });
      const big = new File([new Uint8Array(2 * SLICE + 5)], 'résumé.bin', { type: 'application/pdf' });
      const small = new File(['0123456789'], 'b.txt');
      const progress: UploadProgress[] = [];
      const refs = await fileRefsFrom([big, small], { api, onProgress: (p) => progress.push(p) });
      expect(refs.map((r) => [r.name, r.size])).toEqual([['résumé.bin', big.size], ['b.txt', 10]]);
      expect(uploads.map((u) => [u.input, u.received, u.closed])).toEqual([
        [{ name: 'résumé.bin', type: 'application/pdf', size: big.size, lane: true }, [SLICE, SLICE, 5], true],
        [{ name: 'b.txt', type: '', size: 10, lane: true }, [10], true],
      ]);
      // Unread slices of the File, posted over the lane from the blob store.
      expect(uploads.map((u) => u.kinds)).toEqual([['lane', 'lane', 'lane'], ['lane']]);
      expect(progress.map((p) => [p.index, p.loaded, p.total])).toEqual([
        [0, 0, big.size],
        [0, SLICE, big.size],
        [0, 2 * SLICE, big.size],
        [0, big.size, big.size],
        [0, big.size, big.size],
        [1, 0, 10],
        [1, 10, 10],
        [1, 10, 10],
      ]);
      expect(stagesBytes()).toBe(true);
    });

    it('keeps at most UPLOAD_LANE_WINDOW slices in flight: the rest wait until main takes them', async () => {
      const { api, uploads } = fakeApi();
      const file = new File([new Uint8Array((UPLOAD_LANE_WINDOW + 3) * SLICE)], 'ten.bin');
      const loaded: number[] = [];
      const running = stageFileWith(api)(file, (n) => loaded.push(n));
      await until(() => uploads[0]?.received.length === UPLOAD_LANE_WINDOW);
      await new Promise((r) => setTimeout(r, 20));
      expect(uploads[0]!.received).toHaveLength(UPLOAD_LANE_WINDOW);
      expect(loaded).toEqual([0]);
      uploads[0]!.take();
      await until(() => uploads[0]!.received.length >= UPLOAD_LANE_WINDOW + 1);
      expect(loaded.at(-1)).toBeGreaterThanOrEqual(SLICE);
      for (let i = 0; i < 20 && !uploads[0]!.closed; i++) {
        uploads[0]!.take();
        await new Promise((r) => setTimeout(r, 1));
      }
      expect(uploads[0]!.received).toHaveLength(UPLOAD_LANE_WINDOW + 3);
      uploads[0]!.finish(refOf('ten.bin', file.size));
      expect(await running).toEqual(refOf('ten.bin', file.size));
    });

    it('Cancel stops the session, rejects cancelled once main ended it, and sends nothing more', async () => {
      const { api, uploads } = fakeApi();
      const controller = new AbortController();
      const running = fileRefsFrom([new File([new Uint8Array((UPLOAD_LANE_WINDOW + 2) * SLICE)], 'big.bin')], { api, signal: controller.signal });
      await until(() => uploads[0]?.received.length === UPLOAD_LANE_WINDOW);
      controller.abort();
      await expect(running).rejects.toMatchObject({ error: { code: 'cancelled', message: 'The upload of "big.bin" was cancelled.' } });
      expect(uploads[0]!.cancelled).toBe(true);
      expect(uploads[0]!.closed).toBe(false);
      expect(uploads[0]!.received).toHaveLength(UPLOAD_LANE_WINDOW);
    });

    it('releases an upload that finished just as Cancel was pressed, so nothing stays staged', async () => {
      const { api, uploads, released } = fakeApi();
      const controller = new AbortController();
      const running = fileRefsFrom([new File(['abc'], 'quick.txt')], { api, signal: controller.signal });
      await until(() => uploads[0]?.received.length === 1);
      // Main finished (its answer on its way) when the page cancelled.
      uploads[0]!.finish(refOf('quick.txt', 3, 7));
      controller.abort();
      uploads[0]!.take();
      await expect(running).rejects.toMatchObject({ error: { code: 'cancelled' } });
      expect(released).toEqual([refOf('quick.txt', 3, 7).ref]);
    });

    it('passes main’s own error on (staging full, a stall), not the refused send', async () => {
      const full = { code: 'invalid_input' as const, message: 'Can\'t take "a.bin": the staging folder already holds 256 files, the most it keeps at once.' };
      // Main took the first slice (as its queue does), then ended the session and refused the next.
      const { api } = fakeApi({ failWith: full, autoTake: true });
      await expect(fileRefsFrom([new File([new Uint8Array(3 * SLICE)], 'a.bin')], { api })).rejects.toMatchObject({ error: full });
    });

    const dropped = { code: 'network' as const, message: 'Disconnected from the workbench process before it answered. Reconnecting; try again in a moment.' };

    it('says which file could not be read when its lane request failed, and ends its session', async () => {
      const { api, uploads } = fakeApi({ dropWith: dropped });
      const file = new File(['abc'], 'gone.txt');
      const slice = file.slice.bind(file);
      // Every slice of the file fails to read (it changed on disk): the browser could not post it.
      vi.spyOn(file, 'slice').mockImplementation((start, end) => {
        const part = slice(start, end);
        vi.spyOn(part, 'arrayBuffer').mockRejectedValue(new Error('NotReadableError: the file changed'));
        return part;
      });
      await expect(fileRefsFrom([file], { api })).rejects.toMatchObject({ error: { code: 'internal', message: '"gone.txt" could not be read: NotReadableError: the file changed' } });
      expect(uploads[0]!.cancelled).toBe(true);
    });

    it('passes a lost connection on as it is when the file still reads', async () => {
      const { api } = fakeApi({ dropWith: dropped });
      await expect(fileRefsFrom([new File(['abc'], 'fine.txt')], { api })).rejects.toMatchObject({ error: dropped });
    });
  });

  describe('fileRefsFrom() in Electron', () => {
    it('names a dropped file by the preload’s path reference and uploads nothing', async () => {
      const { api, uploads } = fakeApi({ autoTake: true });
      const pathRef = vi.fn<WorkbenchFilesApi['pathRef']>(async (file) => ({ ok: true, value: refOf(file.name, file.size) }));
      window.workbenchFiles = { pathRef };
      const file = new File(['abc'], 'drop.txt');
      expect(await fileRefsFrom([file], { api })).toEqual([refOf('drop.txt', 3)]);
      expect(pathRef).toHaveBeenCalledWith(file);
      expect(uploads).toEqual([]);
      expect(stagesBytes()).toBe(false);
    });

    it('uploads a File made in the page (no path) over the contract, as browser mode does', async () => {
      const { api, uploads } = fakeApi({ autoTake: true });
      window.workbenchFiles = { pathRef: async () => ({ ok: true, value: null }) };
      const [ref] = await fileRefsFrom([new File(['hello'], 'made.txt', { type: 'text/plain' })], { api });
      expect(ref).toMatchObject({ name: 'made.txt', size: 5, type: 'text/plain' });
      expect(uploads.map((u) => u.received)).toEqual([[5]]);
      // Electron has no lane and its IPC cannot carry a Blob: the slice is read.
      expect(uploads.map((u) => u.kinds)).toEqual([['bytes']]);
    });

    it('rejects with the error value the preload answered, code and all', async () => {
      const { api } = fakeApi();
      const error = { code: 'invalid_input' as const, message: '"photos" is a folder; choose the files inside it instead.' };
      window.workbenchFiles = { pathRef: async () => ({ ok: false, error }) };
      await expect(fileRefsFrom([new File([], 'photos')], { api })).rejects.toMatchObject({ error });
    });
  });

  describe('chooseFiles()', () => {
    it('uses main’s dialog where there is one', async () => {
      const { api } = fakeApi();
      const pick = vi.fn(async () => [refOf('a.txt', 1)]);
      expect(await chooseFiles({ userFiles: { ...api.userFiles, pick } }, { multiple: true, title: 'Upload' })).toEqual([refOf('a.txt', 1)]);
      expect(pick).toHaveBeenCalledWith({ multiple: true, title: 'Upload' });
    });

    it('falls back to the page’s file input and an upload when main has no dialog', async () => {
      const { api, uploads } = fakeApi({ autoTake: true });
      const chosen = new File(['abc'], 'chosen.txt');
      const clicked: HTMLInputElement[] = [];
      vi.spyOn(HTMLInputElement.prototype, 'click').mockImplementation(function (this: HTMLInputElement) {
        clicked.push(this);
        Object.defineProperty(this, 'files', { value: [chosen] });
        this.dispatchEvent(new Event('change'));
      });
      const refs = await chooseFiles(api, { multiple: true, accept: '.txt' });
      expect(refs.map((r) => [r.name, r.size])).toEqual([['chosen.txt', 3]]);
      expect(clicked.map((i) => [i.type, i.multiple, i.accept])).toEqual([['file', true, '.txt']]);
      expect(uploads.map((u) => u.input.name)).toEqual(['chosen.txt']);
    });

    it('gives [] when the page’s chooser is cancelled, and passes other errors on', async () => {
      const { api, uploads } = fakeApi();
      vi.spyOn(HTMLInputElement.prototype, 'click').mockImplementation(function (this: HTMLInputElement) {
        this.dispatchEvent(new Event('cancel'));
      });
      expect(await chooseFiles(api)).toEqual([]);
      const broken = new WorkbenchFailure({ code: 'not_found', message: 'gone' });
      await expect(chooseFiles({ userFiles: { ...api.userFiles, pick: async () => Promise.reject(broken) } })).rejects.toBe(broken);
      expect(uploads).toEqual([]);
    });
  });
});
