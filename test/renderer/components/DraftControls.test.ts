import { describe, expect, it, vi } from 'vitest';
import { mount } from '@vue/test-utils';
import { ref, shallowRef } from 'vue';
import PrimeVue from 'primevue/config';
import { provideWorkbench, type LinkStatus } from '@/api';
import type { DraftNotice } from '@/composables/use-draft';
import { createFakeWorkbench } from '../fake-workbench';
import DraftControls from '@/components/DraftControls.vue';
import { runCommand } from '@/composables/use-command';
import type { DraftHandle } from '@/composables/use-draft';

const handle = () => ({ startNew: vi.fn(), undo: vi.fn(), canUndo: ref(false), notice: ref(null) }) as unknown as DraftHandle;

describe('DraftControls', () => {
  it('makes the new-draft shortcut start a new form in the playground on screen, and only while it is', () => {
    const first = handle();
    const wrapper = mount(DraftControls, { props: { draft: first } });
    expect(runCommand('playground.new')).toBe(true);
    expect(first.startNew).toHaveBeenCalledOnce();
    wrapper.unmount();
    expect(runCommand('playground.new')).toBe(false);
  });

  it('leaves a save refused for the page token to the banner, and shows other save failures', () => {
    const refused: DraftNotice = { kind: 'error', message: 'The workbench process is running but refused this page\u2019s access token.', error: { code: 'network', message: 'refused' } };
    for (const [link, shown] of [['unauthorized', false], ['connected', true]] as const) {
      provideWorkbench(createFakeWorkbench(), shallowRef<LinkStatus>(link));
      const draft = { ...handle(), notice: ref(refused) } as unknown as DraftHandle;
      const wrapper = mount(DraftControls, { props: { draft }, global: { plugins: [[PrimeVue, { theme: 'none' }]] } });
      expect(wrapper.find('.draft-notice').exists()).toBe(shown);
      wrapper.unmount();
    }
    provideWorkbench(createFakeWorkbench(), shallowRef<LinkStatus>('connected'));
  });
});
