/**
 * Large content stays usable: CollapsibleBlock folds what is taller than its bound behind
 * "Show all", and LongText renders only the start of a huge body until asked, while copying all.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { h, nextTick } from 'vue';
import PrimeVue from 'primevue/config';
import CollapsibleBlock from '@/components/run/CollapsibleBlock.vue';
import LongText from '@/components/run/LongText.vue';

const plugins: Array<[typeof PrimeVue, { theme: 'none' }]> = [[PrimeVue, { theme: 'none' }]];
let wrapper: VueWrapper | undefined;
afterEach(() => {
  wrapper?.unmount();
  wrapper = undefined;
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('CollapsibleBlock', () => {
  /** happy-dom lays nothing out: the content's height is what the test says. */
  function withContentHeight(px: number) {
    vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('collapsible-body') ? px : 0;
    });
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('collapsible-body') ? Math.min(px, 448) : 0;
    });
  }
  const mountBlock = () => {
    wrapper = mount(CollapsibleBlock, { props: { what: 'output' }, slots: { default: () => h('p', 'a very long answer') }, global: { plugins } });
    return wrapper;
  };
  const body = () => wrapper!.get('.collapsible-body');

  it('folds content taller than its bound behind "Show all", and unfolds and folds it again', async () => {
    withContentHeight(65_000);
    mountBlock();
    await nextTick();
    expect(body().attributes('style')).toContain('max-height: 28rem');
    const toggle = wrapper!.get('button');
    expect(toggle.attributes('aria-label')).toBe('Show all of the output');
    expect(toggle.attributes('aria-expanded')).toBe('false');
    expect(toggle.attributes('aria-controls')).toBe(body().attributes('id'));
    await toggle.trigger('click');
    expect(body().attributes('style')).toBeUndefined();
    expect(wrapper!.get('button').text()).toBe('Show less');
    expect(wrapper!.get('button').attributes('aria-expanded')).toBe('true');
    await wrapper!.get('button').trigger('click');
    expect(body().attributes('style')).toContain('max-height: 28rem');
  });

  it('shows no button when the content fits', async () => {
    withContentHeight(300);
    mountBlock();
    await nextTick();
    expect(wrapper!.find('button').exists()).toBe(false);
    expect(wrapper!.text()).toContain('a very long answer');
  });
});

describe('LongText', () => {
  let written: string[];
  beforeEach(() => {
    written = [];
    vi.stubGlobal('navigator', { clipboard: { writeText: async (t: string) => void written.push(t) } });
  });
  const body = 'x'.repeat(200_000);
  const mountText = (text: string) =>
    (wrapper = mount(LongText, { props: { text, label: 'Request body', what: 'request JSON', limit: 20_000 }, global: { plugins } }));
  const pre = () => wrapper!.get('pre[aria-label="Request body"]');

  it('renders the first 20,000 characters of a 200 KB body until "Show all", and copies all of it', async () => {
    mountText(body);
    expect(pre().text().length).toBe(20_001);
    expect(pre().text().endsWith('…')).toBe(true);
    const showAll = wrapper!.findAll('button').find((b) => b.text().startsWith('Show all'))!;
    expect(showAll.text()).toBe('Show all (180,000 more characters)');
    await wrapper!.get('button[aria-label="Copy request JSON"]').trigger('click');
    await flushPromises();
    expect(written).toEqual([body]);
    await showAll.trigger('click');
    expect(pre().text().length).toBe(200_000);
    expect(wrapper!.findAll('button').some((b) => b.text().startsWith('Show all'))).toBe(false);
  });

  it('renders a short body whole, with no "Show all"', () => {
    mountText('{"model":"svc-3-mini"}');
    expect(pre().text()).toBe('{"model":"svc-3-mini"}');
    expect(wrapper!.findAll('button').map((b) => b.attributes('aria-label'))).toEqual(['Copy request JSON']);
  });

  it('folds again when another record is shown', async () => {
    mountText(body);
    await wrapper!.findAll('button').find((b) => b.text().startsWith('Show all'))!.trigger('click');
    await wrapper!.setProps({ text: 'y'.repeat(50_000) });
    expect(pre().text().length).toBe(20_001);
  });
});
