import { beforeEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { provideWorkbench } from '@/api';
import { secondsLeft, useFileUploadsStore, type StageFiles } from '@/stores/file-uploads';
import type { FileRef } from '@shared/contract/user-files';
import { createFakeWorkbench, type FakeWorkbench } from '../fake-workbench';

let fake: FakeWorkbench;
const staged: File[][] = [];
/** Stages like browser mode does: every file becomes a reference, with progress on the way. */
const stage: StageFiles = async (files, onProgress) => {
  staged.push(files);
  files.forEach((f) => onProgress(f, f.size));
  return files.map((f, i): FileRef => ({ ref: `ref_${'A'.repeat(19)}${i}`, name: f.name, size: f.size, type: f.type }));
};
const file = (name: string, size: number) => new File([new Uint8Array(size)], name, { type: 'application/octet-stream' });

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
    const done = uploads.addFiles([big, file('a.txt', 10)], stage);
    await flushPromises();
    expect(staged).toEqual([[expect.objectContaining({ name: 'a.txt' })]]);
    const rejected = uploads.items.find((i) => i.name === 'huge.iso')!;
    expect(rejected).toMatchObject({ phase: 'rejected', message: '"huge.iso" is 60 MB; the service takes files up to 50 MB. Split or compress it first.' });
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
    void uploads.addFiles([big, huge], stage);
    await flushPromises();
    expect(staged).toEqual([[expect.objectContaining({ name: 'disk.img' })]]);
    expect(uploads.items.find((i) => i.name === 'huger.img')).toMatchObject({ phase: 'rejected', message: expect.stringContaining('up to 2 GB') });
  });

  it('Cancel stops the stream and shows what the cancel left; Retry sends the same reference again', async () => {
    const uploads = useFileUploadsStore();
    const done = uploads.addFiles([file('b.txt', 1000)], stage);
    await flushPromises();
    const [item] = uploads.items;
    await uploads.cancel(item!.id);
    await done;
    expect(fake.controls.uploads[0]!.cancelled).toBe(true);
    expect(uploads.items[0]).toMatchObject({ phase: 'cancelled', message: expect.stringMatching(/nothing was kept/) });

    const again = uploads.retry(item!.id);
    await flushPromises();
    expect(fake.controls.uploads).toHaveLength(2);
    expect(fake.controls.uploads[1]!.input.ref).toBe(fake.controls.uploads[0]!.input.ref);
    fake.controls.uploads[1]!.fail({ code: 'network', message: 'The connection dropped. Retry when the connection is back.' });
    await again;
    expect(uploads.items[0]).toMatchObject({ phase: 'failed', message: 'The connection dropped. Retry when the connection is back.' });
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
});
