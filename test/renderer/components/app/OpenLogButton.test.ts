import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import ToastService from 'primevue/toastservice';
import { provideWorkbench } from '@/api';
import OpenLogButton from '@/components/OpenLogButton.vue';
import { createFakeWorkbench } from '../../fake-workbench';

let wrapper: VueWrapper;
afterEach(() => wrapper?.unmount());

async function mountButton(openLog: () => Promise<{ opened: boolean; path: string }>) {
  const fake = createFakeWorkbench();
  const calls: string[] = [];
  provideWorkbench({ ...fake, app: { ...fake.app, openLog: async () => (calls.push('openLog'), openLog()) } });
  wrapper = mount(OpenLogButton, { global: { plugins: [[PrimeVue, { theme: 'none' }], ToastService] } });
  await wrapper.find('button').trigger('click');
  await flushPromises();
  return calls;
}

describe('OpenLogButton', () => {
  it('asks main to open the log and, in browser mode, shows where it is', async () => {
    const calls = await mountButton(async () => ({ opened: false, path: '/home/u/.local/share/inference-workbench/logs/workbench.log' }));
    expect(calls).toEqual(['openLog']);
    expect(wrapper.find('[role="status"]').text()).toContain('Log file: /home/u/.local/share/inference-workbench/logs/workbench.log');
  });

  it('shows no path once Electron opened the file', async () => {
    await mountButton(async () => ({ opened: true, path: '/data/logs/workbench.log' }));
    expect(wrapper.find('[role="status"]').exists()).toBe(false);
  });
});
