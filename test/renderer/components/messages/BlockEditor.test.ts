import { describe, expect, it, vi } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import { reactive } from 'vue';
import BlockEditor from '@/families/messages/components/BlockEditor.vue';
import type { FormBlock } from '@/families/messages/lib/messages-form';

function mountImage(block: Extract<FormBlock, { kind: 'image' }>) {
  return mount(BlockEditor, { props: { block, label: 'Message 1 block 2', problems: [] }, global: { plugins: [[PrimeVue, { theme: 'none' }]] } });
}

async function pick(wrapper: ReturnType<typeof mountImage>, file: File): Promise<void> {
  const input = wrapper.find('input[type="file"]');
  Object.defineProperty(input.element, 'files', { value: [file], configurable: true });
  await input.trigger('change');
  await flushPromises();
}

describe('BlockEditor', () => {
  it('reads a picked image into base64 data with its media type', async () => {
    const block = reactive<Extract<FormBlock, { kind: 'image' }>>({ id: 1, kind: 'image', source: 'base64', url: '', mediaType: 'image/png', data: '', fileName: '' });
    const wrapper = mountImage(block);
    await pick(wrapper, new File([new Uint8Array([0x47, 0x49, 0x46, 0x38])], 'tiny.gif', { type: 'image/gif' }));
    // FileReader answers asynchronously.
    await vi.waitFor(() => expect(block.data).not.toBe(''));
    await flushPromises();
    expect({ data: block.data, mediaType: block.mediaType, fileName: block.fileName }).toEqual({ data: 'R0lGOA==', mediaType: 'image/gif', fileName: 'tiny.gif' });
    expect(wrapper.text()).toContain('tiny.gif · image/gif');
  });

  it('refuses a file that is not an image type the interface takes, and says which ones it does', async () => {
    const block = reactive<Extract<FormBlock, { kind: 'image' }>>({ id: 2, kind: 'image', source: 'base64', url: '', mediaType: 'image/png', data: '', fileName: '' });
    const wrapper = mountImage(block);
    await pick(wrapper, new File(['%PDF'], 'doc.pdf', { type: 'application/pdf' }));
    expect(block.data).toBe('');
    expect(wrapper.find('[role="status"]').text()).toBe('doc.pdf is application/pdf; images must be image/jpeg, image/png, image/gif, image/webp.');
  });
});
