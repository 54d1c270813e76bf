import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import ImagesView from '@/views/ImagesView.vue';
import { useImagesFormStore } from '@/stores/images-form';
import { mountWithApp, type Mounted } from '../mount-app';

let m: Mounted;
afterEach(() => m?.wrapper.unmount());

const REF = 'ref_AAAAAAAAAAAAAAAAAAAA';

describe('ImagesView arrival from the drop router', () => {
  it('makes a file dropped on another view (?ref=) the edit’s input, then drops the query', async () => {
    m = await mountWithApp(ImagesView, { route: `/images?ref=${REF}` });
    await flushPromises();
    const form = useImagesFormStore(m.pinia);
    expect(form.inputs).toEqual([{ source: { kind: 'ref', ref: REF }, label: 'dropped file', previewUrl: null }]);
    expect(form.mode).toBe('edit');
    await vi.waitFor(() => expect(m.router.currentRoute.value.fullPath).toBe('/images'));
  });
});
