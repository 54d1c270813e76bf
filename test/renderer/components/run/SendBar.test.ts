import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import SendBar from '@/components/run/SendBar.vue';

let w: VueWrapper | undefined;
afterEach(() => w?.unmount());

const mountBar = (props: Record<string, unknown>): VueWrapper =>
  mount(SendBar, { props: { busy: false, blockedReason: null, ...props }, global: { plugins: [[PrimeVue, { theme: 'none' }]] } });

describe('SendBar', () => {
  it('offers its label and the shortcut when the form can be sent, and emits send', async () => {
    w = mountBar({ label: 'Continue' });
    const send = w.find('button');
    expect(send.text()).toBe('Continue');
    expect(send.attributes('title')).toMatch(/^Continue \((Ctrl|⌘)\+Enter\)$/);
    expect(w.text()).toMatch(/(Ctrl|⌘)\+Enter to continue/);
    await send.trigger('click');
    expect(w.emitted('send')).toHaveLength(1);
  });

  it('disables Send with the reason and counts the other violations', () => {
    w = mountBar({ blockedReason: 'temperature must be between 0 and 2', violationCount: 3 });
    expect(w.find('button').attributes('disabled')).toBeDefined();
    expect(w.find('[role="status"]').text()).toBe("Can't send: temperature must be between 0 and 2");
    expect(w.text()).toContain('(+2 more)');
  });

  it('turns into Stop while busy, with its own note', async () => {
    w = mountBar({ busy: true, busyNote: 'Esc stops the run' });
    const stop = w.find('button');
    expect(stop.text()).toBe('Stop');
    expect(w.text()).toContain('Esc stops the run');
    await stop.trigger('click');
    expect(w.emitted('stop')).toHaveLength(1);
  });
});
