import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import TurnCard from '@/components/chat/TurnCard.vue';

let w: VueWrapper | undefined;
afterEach(() => w?.unmount());

const mountCard = (index: number, count: number): VueWrapper =>
  mount(TurnCard, {
    props: { index, count, role: 'assistant' },
    slots: { bar: '<span class="bar-extra">role</span>', default: '<p class="body">hello</p>' },
    global: { plugins: [[PrimeVue, { theme: 'none' }]] },
  });
const btn = (wrapper: VueWrapper, label: string) => wrapper.find(`[aria-label="${label}"]`);

describe('TurnCard', () => {
  it('numbers its controls from 1 and cannot move the first up or the last down', () => {
    w = mountCard(0, 1);
    expect(btn(w, 'Move message 1 up').attributes('disabled')).toBeDefined();
    expect(btn(w, 'Move message 1 down').attributes('disabled')).toBeDefined();
    expect(w.find('.bar-extra').exists()).toBe(true);
    expect(w.find('.body').text()).toBe('hello');
  });

  it('emits move with the direction and remove', async () => {
    w = mountCard(1, 3);
    await btn(w, 'Move message 2 up').trigger('click');
    await btn(w, 'Move message 2 down').trigger('click');
    await btn(w, 'Remove message 2').trigger('click');
    expect(w.emitted('move')).toEqual([[-1], [1]]);
    expect(w.emitted('remove')).toHaveLength(1);
  });
});
