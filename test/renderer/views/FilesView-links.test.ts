import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import FilesView from '@/families/files/views/FilesView.vue';
import { makeFileRecord } from '../fake-workbench';
import { mountWithApp, type Mounted } from '../mount-app';

let m: Mounted;
afterEach(() => m?.wrapper.unmount());

const REF = 'ref_AAAAAAAAAAAAAAAAAAAA';
const FILE_ID = 'file_00000000-0000-0000-0000-0000000000b2';

describe('FilesView arrival links', () => {
  it('uploads files dropped elsewhere (?upload=<ref>), then drops the query so a reload does not upload again', async () => {
    m = await mountWithApp(FilesView, { route: `/files?upload=${REF}` });
    await flushPromises();
    expect(m.fake.controls.uploads.map((u) => u.input)).toEqual([{ ref: REF }]);
    expect(m.wrapper.find('[aria-label="Upload of dropped file"]').exists()).toBe(true);
    expect(m.router.currentRoute.value.fullPath).toBe('/files');
  });

  it('shows one file (?id=<file id>) with a filter on its id', async () => {
    m = await mountWithApp(FilesView, { route: `/files?id=${FILE_ID}`, fake: { files: [makeFileRecord({ id: FILE_ID, filename: 'out.mp4' }), makeFileRecord({ id: 'file_other', filename: 'other.txt' })] } });
    await flushPromises();
    const lists = m.fake.controls.calls.filter((c) => c.method === 'files.list').map((c) => c.input);
    expect(lists).toEqual([{ sortBy: 'created_at', order: 'desc', limit: 20, filter: `file_id = "${FILE_ID}"` }]);
    await vi.waitFor(() => expect(m.wrapper.text()).toContain('out.mp4'));
    expect(m.router.currentRoute.value.fullPath).toBe('/files');
  });
});
