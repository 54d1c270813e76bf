import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { provideWorkbench } from '@/api';
import { useConnectionsStore } from '@/stores/connections';
import { useFilesStore } from '@/families/files/stores/files';
import { WorkbenchFailure } from '@shared/contract/errors';
import { createFakeWorkbench, makeFileRecord, type FakeWorkbench } from '../fake-workbench';

let fake: FakeWorkbench;
const lists = () => fake.controls.calls.filter((c) => c.method === 'files.list').map((c) => c.input);

beforeEach(() => {
  setActivePinia(createPinia());
  const files = Array.from({ length: 25 }, (_, i) => makeFileRecord({ key: `lf_${i}`, id: `file_${i}`, filename: `f${i}.txt` }));
  fake = createFakeWorkbench({ files });
  provideWorkbench(fake);
});

describe('files store', () => {
  it('pages forward and back by token', async () => {
    const files = useFilesStore();
    await files.refresh();
    expect(files.items).toHaveLength(20);
    await files.nextPage();
    expect(files.items.map((f) => f.id)).toEqual(['file_20', 'file_21', 'file_22', 'file_23', 'file_24']);
    expect(files.nextToken).toBeNull();
    await files.previousPage();
    expect(files.items[0]!.id).toBe('file_0');
    expect(lists()).toEqual([
      { sortBy: 'created_at', order: 'desc', limit: 20 },
      { sortBy: 'created_at', order: 'desc', limit: 20, paginationToken: '20' },
      { sortBy: 'created_at', order: 'desc', limit: 20 },
    ]);
  });

  it('never sends a filter that does not parse, and says where it breaks', async () => {
    const files = useFilesStore();
    const error = await files.applyFilter('size_bytes > ');
    expect(error).toMatchObject({ column: expect.any(Number), message: expect.any(String) });
    expect(files.filterError).toEqual(error);
    expect(lists()).toEqual([]);
    expect(await files.applyFilter('name:"f1" AND size_bytes > 10')).toBeNull();
    expect(lists()).toEqual([{ sortBy: 'created_at', order: 'desc', limit: 20, filter: 'name:"f1" AND size_bytes > 10' }]);
  });

  it('falls back to the offline record when the service cannot be reached', async () => {
    fake.files.list = async () => {
      throw new WorkbenchFailure({ code: 'network', message: 'Could not reach the service.' });
    };
    const files = useFilesStore();
    await files.refresh();
    expect(files.offline).toBe(true);
    expect(files.items).toHaveLength(25);
    expect(files.error?.code).toBe('network');
  });

  it('offline, stands in with the active connection\'s files only, not every connection\'s record', async () => {
    fake.controls.files.push(makeFileRecord({ key: 'lf_other', id: 'file_0', filename: 'f0.txt', connectionId: 'conn-other' }));
    fake.files.list = async () => {
      throw new WorkbenchFailure({ code: 'network', message: 'Could not reach the service.' });
    };
    await useConnectionsStore().load();
    const files = useFilesStore();
    await files.refresh();
    expect(files.offline).toBe(true);
    expect(files.items).toHaveLength(25);
    expect(files.items.every((f) => f.connectionId === 'sandbox')).toBe(true);
  });

  it('takes changes from other windows into the rows it shows', async () => {
    const files = useFilesStore();
    await files.refresh();
    files.listen();
    fake.controls.emitFileChanged(makeFileRecord({ key: 'lf_3', id: 'file_3', filename: 'renamed.txt' }));
    expect(files.items[3]!.filename).toBe('renamed.txt');
    files.dispose();
  });
});

describe('files store: the local record', () => {
  it('shows every file recorded here, searched by name, without asking the service', async () => {
    const files = useFilesStore();
    await files.setSource('local');
    expect(files.items).toHaveLength(25);
    await files.setLocalQuery('f12');
    expect(fake.controls.calls.filter((c) => c.method === 'files.local').map((c) => c.input)).toEqual([{ limit: 200 }, { limit: 200, query: 'f12' }]);
    expect(lists()).toEqual([]);
  });
});
