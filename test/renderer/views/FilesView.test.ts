import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import type { FileRef } from '@shared/contract/user-files';
import { mountWithApp, type Mounted } from '../mount-app';
import { makeFileRecord } from '../fake-workbench';

// The page's staging (userFiles.upload over the contract) is tested on its own; here it hands back references.
const staged: string[] = [];
vi.mock('@/bridge/user-files', () => ({
  stagesBytes: () => true,
  stageFileWith: () => async (f: File, onProgress: (loaded: number) => void): Promise<FileRef> => {
    staged.push(f.name);
    onProgress(f.size);
    return { ref: `ref_${'D'.repeat(19)}${staged.length}`, name: f.name, size: f.size, type: f.type };
  },
}));

const { default: FilesView } = await import('@/families/files/views/FilesView.vue');

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  staged.length = 0;
});

function drop(files: File[]): void {
  const event = new Event('drop', { bubbles: true, cancelable: true }) as Event & { dataTransfer: unknown };
  event.dataTransfer = { files, types: ['Files'] };
  window.dispatchEvent(event);
}

describe('FilesView', () => {
  it('lists the service files on open', async () => {
    m = await mountWithApp(FilesView, { route: '/files', fake: { files: [makeFileRecord({ id: 'file_a', filename: 'kept.pdf' })] } });
    await flushPromises();
    expect(m.wrapper.text()).toContain('kept.pdf');
    expect(m.fake.controls.calls.find((c) => c.method === 'files.list')?.input).toEqual({ sortBy: 'created_at', order: 'desc', limit: 20 });
  });

  it('uploads what is dropped anywhere on the window, and explains a file over the limit without sending it', async () => {
    m = await mountWithApp(FilesView, { route: '/files' });
    const huge = { name: 'huge.iso', size: 51 * 1024 * 1024, type: '' } as File;
    drop([new File(['hello'], 'hello.txt', { type: 'text/plain' }), huge]);
    await flushPromises();
    expect(staged).toEqual(['hello.txt']);
    expect(m.fake.controls.uploads).toHaveLength(1);
    expect(m.wrapper.text()).toContain('"huge.iso" is 51 MiB; the service takes files up to 50 MiB.');
    m.fake.controls.uploads[0]!.finish();
    await flushPromises();
    expect(m.wrapper.find('[aria-label="Upload of hello.txt"]').text()).toContain('uploaded');
  });

  it('uploads files chosen with the browser file picker', async () => {
    m = await mountWithApp(FilesView, { route: '/files' });
    const input = m.wrapper.find('input[type="file"]');
    Object.defineProperty(input.element, 'files', { value: [new File(['x'], 'picked.txt')] });
    await input.trigger('change');
    await flushPromises();
    expect(staged).toEqual(['picked.txt']);
    expect(m.fake.controls.uploads).toHaveLength(1);
  });
});
