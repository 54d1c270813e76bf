/**
 * CopyButton: copies its text (or what its function gives, built only on click), says so on the
 * button and to screen readers, says when the clipboard refused, then goes back to "Copy".
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import CopyButton from '@/components/CopyButton.vue';

let written: string[];
let refuse: boolean;
let wrapper: VueWrapper | undefined;

beforeEach(() => {
  written = [];
  refuse = false;
  vi.stubGlobal('navigator', {
    clipboard: {
      writeText: async (text: string) => {
        if (refuse) throw new Error('Write permission denied');
        written.push(text);
      },
    },
  });
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = undefined;
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function mountButton(props: { text: string | (() => string); what: string; label?: string; resetAfterMs?: number }) {
  wrapper = mount(CopyButton, { props, global: { plugins: [[PrimeVue, { theme: 'none' }]] } });
  return wrapper;
}
const button = () => wrapper!.get('button');
const status = () => wrapper!.get('[role="status"]');

describe('CopyButton', () => {
  it('is named after what it copies and copies the text', async () => {
    mountButton({ text: 'resp_01J9', what: 'response id' });
    expect(button().attributes('aria-label')).toBe('Copy response id');
    expect(button().find('.pi-copy').exists()).toBe(true);
    await button().trigger('click');
    await flushPromises();
    expect(written).toEqual(['resp_01J9']);
    expect(status().text()).toBe('Copied response id');
    expect(button().find('.pi-check').exists()).toBe(true);
    expect(wrapper!.emitted('copied')).toEqual([['resp_01J9']]);
  });

  it('builds the text from its function only when clicked, each time', async () => {
    let builds = 0;
    mountButton({ text: () => `plain ${++builds}`, what: 'answer as plain text', label: 'Text' });
    expect(builds).toBe(0);
    expect(button().text()).toContain('Text');
    await button().trigger('click');
    await button().trigger('click');
    await flushPromises();
    expect(written).toEqual(['plain 1', 'plain 2']);
  });

  it('says when the clipboard refused, and nothing was copied', async () => {
    refuse = true;
    mountButton({ text: 'x', what: 'JSON' });
    await button().trigger('click');
    await flushPromises();
    expect(written).toEqual([]);
    expect(status().text()).toBe('Could not copy JSON');
    expect(wrapper!.emitted('failed')![0]![0]).toBeInstanceOf(Error);
    expect(button().find('.pi-times').exists()).toBe(true);
  });

  it('says so where there is no clipboard API at all', async () => {
    vi.stubGlobal('navigator', {});
    mountButton({ text: 'x', what: 'run id' });
    await button().trigger('click');
    await flushPromises();
    expect(status().text()).toBe('Could not copy run id');
  });

  it('goes back to "Copy" after a moment', async () => {
    vi.useFakeTimers();
    mountButton({ text: 'x', what: 'file id', resetAfterMs: 1000 });
    await button().trigger('click');
    await flushPromises();
    expect(status().text()).toBe('Copied file id');
    vi.advanceTimersByTime(999);
    await flushPromises();
    expect(status().text()).toBe('Copied file id');
    vi.advanceTimersByTime(1);
    await flushPromises();
    expect(status().text()).toBe('');
    expect(button().find('.pi-copy').exists()).toBe(true);
  });
});
