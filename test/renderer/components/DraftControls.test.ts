import { describe, expect, it, vi } from 'vitest';
import { mount } from '@vue/test-utils';
import { ref } from 'vue';
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
});
