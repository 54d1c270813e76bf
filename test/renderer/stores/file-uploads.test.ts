import { beforeEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { provideWorkbench } from '@/api';
import { StageRate, secondsLeft, uploadFraction, useFileUploadsStore, type Stager } from '@/families/files/stores/file-uploads';
import { WorkbenchFailure } from '@shared/contract/errors';
import type { FileRef } from '@shared/contract/user-files';
import { createFakeWorkbench, type FakeWorkbench } from '../fake-workbench';

let fake: FakeWorkbench;
const staged: string[] = [];
const refFor = (f: File, i = 0): FileRef => ({ ref: `ref_${'A'.repeat(19)}${i}`, name: f.name, size: f.size, type: f.type });
/** Stages like browser mode does: every file becomes a reference, with progress on the way. */
const stager: Stager = {
  twoLegs: true,
  stage: async (f, onProgress) => {
    staged.push(f.name);
    onProgress(f.size);
    return refFor(f, staged.length);
  },
};

/** A staging the test drives: progress, finish, and what the abort signal did. */
function heldStager() {
  const held: { file: File; onProgress: (n: number) => void; signal: AbortSignal; resolve: (r: FileRef) => void; reject: (e: unknown) => void }[] = [];
  const s: Stager = {
    twoLegs: true,
    stage: (file, onProgress, signal) =>
      new Promise<FileRef>((resolve, reject) => {
        held.push({ file, onProgress, signal, resolve, reject });
        // As the XHR does: an abort rejects with `cancelled` (and the server drops the partial file).
        signal.addEventListener('abort', () => reject(new WorkbenchFailure({ code: 'cancelled', message: `The upload of "${file.name}" was cancelled.` })));
      }),
  };
  return { held, stager: s };
}
const file = (name: string, size: number) => new File([new Uint8Array(size)], name, { type: 'application/octet-stream' });
const calls = (method: string) => fake.controls.calls.filter((c) => c.method === method).map((c) => c.input);

beforeEach(() => {
  setActivePinia(createPinia());
  fake = createFakeWorkbench();
  provideWorkbench(fake);
  staged.length = 0;
});

describe('file-uploads store', () => {
  it('explains a file over the limit before anything is staged or sent, and uploads the rest', async () => {
    const uploads = useFileUploadsStore();
    const big = { name: 'huge.iso', size: 60 * 1024 * 1024, type: '' } as File;
    const done = uploads.addFiles([big, file('a.txt', 10)], stager);
    await flushPromises();
    expect(staged).toEqual(['a.txt']);
    const rejected = uploads.items.find((i) => i.name === 'huge.iso')!;
    expect(rejected).toMatchObject({ phase: 'rejected', message: '"huge.iso" is 60 MiB; the service takes files up to 50 MiB. Split or compress it first.' });
    expect(fake.controls.uploads).toHaveLength(1);
    fake.controls.uploads[0]!.progress(400, 200);
    const running = uploads.items.find((i) => i.name === 'a.txt')!;
    expect(running).toMatchObject({ phase: 'uploading', sent: 400, bytesPerSecond: 200, runId: 'run-up1' });
    fake.controls.uploads[0]!.finish();
    await done;
    expect(uploads.items.find((i) => i.name === 'a.txt')).toMatchObject({ phase: 'complete', record: expect.objectContaining({ id: 'file_up1' }) });
  });

  it('takes the limit main reports (a raised sandbox limit) instead of the service default', async () => {
    const uploads = useFileUploadsStore();
    uploads.maxFileBytes = 2 * 1024 ** 3;
    const big = { name: 'disk.img', size: 1024 ** 3, type: '' } as File;
    const huge = { name: 'huger.img', size: 3 * 1024 ** 3, type: '' } as File;
    void uploads.addFiles([big, huge], stager);
    await flushPromises();
    expect(staged).toEqual(['disk.img']);
    expect(uploads.items.find((i) => i.name === 'huger.img')).toMatchObject({ phase: 'rejected', message: expect.stringContaining('up to 2 GiB') });
  });

  it('Cancel while sending stops the stream, releases the staged copy, and Retry stages the file again', async () => {
    const uploads = useFileUploadsStore();
    const done = uploads.addFiles([file('b.txt', 1000)], stager);
    await flushPromises();
    const [item] = uploads.items;
    expect(item!.phase).toBe('uploading');
    await uploads.cancel(item!.id);
    await done;
    expect(fake.controls.uploads[0]!.cancelled).toBe(true);
    expect(uploads.items[0]).toMatchObject({ phase: 'cancelled', message: expect.stringMatching(/nothing was kept/) });
    // Nothing stays in staging: the staged copy main held for the send is released.
    expect(calls('userFiles.release')).toEqual([{ ref: fake.controls.uploads[0]!.input.ref }]);

    expect(uploads.canRetry(uploads.items[0]!)).toBe(true);
    const again = uploads.retry(item!.id);
    await flushPromises();
    expect(staged).toEqual(['b.txt', 'b.txt']);
    expect(fake.controls.uploads).toHaveLength(2);
    fake.controls.uploads[1]!.fail({ code: 'network', message: 'The connection dropped. Retry when the connection is back.' });
    await again;
    expect(uploads.items[0]).toMatchObject({ phase: 'failed', message: 'The connection dropped. Retry when the connection is back.' });
  });

  it('Cancel while the page stages the file aborts the staging, sends nothing, and records the run as cancelled', async () => {
    const uploads = useFileUploadsStore();
    const { held, stager: slow } = heldStager();
    const done = uploads.addFiles([file('big.bin', 30_000)], slow);
    await flushPromises();
    const [item] = uploads.items;
    held[0]!.onProgress(600);
    expect(item).toMatchObject({ phase: 'staging', staged: 600 });
    await uploads.cancel(item!.id);
    await done;
    expect(held[0]!.signal.aborted).toBe(true);
    expect(calls('files.upload')).toEqual([]);
    expect(calls('files.uploadCancelled')).toEqual([{ name: 'big.bin', size: 30_000, type: 'application/octet-stream', staged: 600 }]);
    expect(uploads.items[0]).toMatchObject({ phase: 'cancelled', runId: expect.stringMatching(/^run-cancelled/), message: expect.stringMatching(/nothing was sent to the service/) });
  });

  it('Cancel between staging and sending releases the staged copy and sends nothing', async () => {
    const uploads = useFileUploadsStore();
    const { held, stager: slow } = heldStager();
    const done = uploads.addFiles([file('c.bin', 100)], slow);
    await flushPromises();
    held[0]!.resolve(refFor(held[0]!.file, 7));
    void uploads.cancel(uploads.items[0]!.id);
    await done;
    expect(calls('files.upload')).toEqual([]);
    expect(calls('userFiles.release')).toEqual([{ ref: refFor(held[0]!.file, 7).ref }]);
    expect(calls('files.uploadCancelled')).toHaveLength(1);
    expect(uploads.items[0]!.phase).toBe('cancelled');
  });

  it('stages one file at a time, sends each as soon as it is staged, and a waiting one can be cancelled', async () => {
    const uploads = useFileUploadsStore();
    const { held, stager: slow } = heldStager();
    const done = uploads.addFiles([file('one.bin', 10), file('two.bin', 10), file('three.bin', 10)], slow);
    await flushPromises();
    expect(held.map((h) => h.file.name)).toEqual(['one.bin']);
    const byName = (n: string) => uploads.items.find((i) => i.name === n)!;
    expect(byName('two.bin').phase).toBe('queued');
    await uploads.cancel(byName('two.bin').id);
    held[0]!.resolve(refFor(held[0]!.file, 1));
    await flushPromises();
    expect(fake.controls.uploads).toHaveLength(1);
    expect(held.map((h) => h.file.name)).toEqual(['one.bin', 'three.bin']);
    expect(byName('two.bin').phase).toBe('cancelled');
    held[1]!.resolve(refFor(held[1]!.file, 3));
    await flushPromises();
    fake.controls.uploads.forEach((u) => u.finish());
    await done;
    expect(uploads.items.map((i) => [i.name, i.phase])).toEqual([['three.bin', 'complete'], ['two.bin', 'cancelled'], ['one.bin', 'complete']]);
  });

  it('Clear finished releases the staged copy a failed upload kept for Retry', async () => {
    const uploads = useFileUploadsStore();
    const done = uploads.addFiles([file('d.txt', 10)], stager);
    await flushPromises();
    fake.controls.uploads[0]!.fail({ code: 'network', message: 'The connection dropped.' });
    await done;
    expect(calls('userFiles.release')).toEqual([]);
    uploads.clearFinished();
    await flushPromises();
    expect(calls('userFiles.release')).toEqual([{ ref: fake.controls.uploads[0]!.input.ref }]);
    expect(uploads.items).toEqual([]);
  });

  it('sends the chosen expiry with each upload', async () => {
    const uploads = useFileUploadsStore();
    uploads.expiresAfter = 86_400;
    void uploads.addRefs([{ ref: `ref_${'B'.repeat(20)}`, name: 'c.txt', size: 5, type: 'text/plain' }]);
    await flushPromises();
    expect(fake.controls.uploads[0]!.input).toEqual({ ref: `ref_${'B'.repeat(20)}`, expiresAfter: 86_400 });
  });

  it('secondsLeft() is unknown until there is a speed', () => {
    expect(secondsLeft({ size: 1000, sent: 0, bytesPerSecond: 0 })).toBeNull();
    expect(secondsLeft({ size: 1000, sent: 400, bytesPerSecond: 200 })).toBe(3);
  });

  it('counts both legs as one upload: progress and time left from the first staged byte', () => {
    const staging = { size: 1000, staged: 250, sent: 0, bytesPerSecond: 250, twoLegs: true, phase: 'staging' as const };
    expect(uploadFraction(staging)).toBe(0.125);
    // 750 bytes still to stage and 1000 to send, at the only speed known so far.
    expect(secondsLeft(staging)).toBe(7);
    const sending = { ...staging, staged: 1000, sent: 500, phase: 'uploading' as const, bytesPerSecond: 500 };
    expect(uploadFraction(sending)).toBe(0.75);
    expect(secondsLeft(sending)).toBe(1);
    expect(uploadFraction({ ...sending, twoLegs: false })).toBe(0.5);
  });

  it('StageRate: progress in bursts (whole slices finishing together on a slow link) still gives the speed since the last sample before them', () => {
    const rate = new StageRate();
    rate.add(0, 0);
    rate.add(0, 1);
    // Four 4 MiB slices posted at once over a 3 MB/s link all finish after about 5.6 s.
    const MiB = 1024 * 1024;
    for (let i = 1; i <= 4; i++) rate.add(i * 4 * MiB, 5600 + i);
    expect(Math.round(rate.bytesPerSecond() / 1000)).toBe(Math.round((16 * MiB) / 5604));
    // Steady progress keeps to the window: the speed of the last 3 s, not since the start.
    rate.add(17 * MiB, 9000);
    rate.add(18 * MiB, 10000);
    expect(Math.round(rate.bytesPerSecond())).toBe(Math.round(((18 - 16) * MiB * 1000) / (10000 - 5604)));
  });
});
