import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import TurnList from '@/components/chat/TurnList.vue';

let w: VueWrapper | undefined;
afterEach(() => w?.unmount());

const mountList = (count: number): VueWrapper =>
  mount(TurnList, { props: { count }, slots: { default: '<li>one</li>'.repeat(count) }, global: { plugins: [[PrimeVue, { theme: 'none' }]] } });

describe('TurnList', () => {
  it('says so when there are no messages yet', () => {
    w = mountList(0);
    expect(w.text()).toContain('No messages yet.');
    w.unmount();
    w = mountList(2);
    expect(w.findAll('ol > li')).toHaveLength(2);
    expect(w.text()).not.toContain('No messages yet.');
  });

  it('asks for a new message when "Add message" is pressed', async () => {
    w = mountList(1);
    await w.find('button').trigger('click');
    expect(w.emitted('add')).toHaveLength(1);
  });
});
