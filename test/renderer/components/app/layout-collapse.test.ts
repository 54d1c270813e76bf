/**
 * The compact layout (windows under 1100 px): the nav shows icons only and can be expanded by
 * hand, and a playground's model and parameters move into a drawer that opens from a button and
 * closes with Esc, handing focus back. The window width is a stubbed matchMedia.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import { defineComponent, h, nextTick } from 'vue';
import PrimeVue from 'primevue/config';
import { createMemoryHistory } from 'vue-router';
import { createAppRouter } from '@/router';
import AppNav from '@/components/AppNav.vue';
import { NAV_ENTRIES } from '@shared/families';
import PlaygroundLayout from '@/components/run/PlaygroundLayout.vue';
import { COMPACT_QUERY } from '@/composables/use-media-query';

/** A stand-in for the window: its width decides COMPACT_QUERY, and resizing fires change events. */
function fakeWindow(width: number) {
  const listeners = new Set<(e: { matches: boolean }) => void>();
  const compact = () => width < 1100;
  vi.stubGlobal('matchMedia', (query: string) => {
    expect(query).toBe(COMPACT_QUERY);
    return {
      get matches() {
        return compact();
      },
      addEventListener: (_: string, cb: (e: { matches: boolean }) => void) => listeners.add(cb),
      removeEventListener: (_: string, cb: (e: { matches: boolean }) => void) => listeners.delete(cb),
    };
  });
  return {
    resize(next: number) {
      width = next;
      for (const cb of listeners) cb({ matches: compact() });
    },
    listeners,
  };
}

let wrapper: VueWrapper | undefined;
afterEach(() => {
  wrapper?.unmount();
  wrapper = undefined;
  vi.unstubAllGlobals();
});

describe('AppNav', () => {
  let win: ReturnType<typeof fakeWindow>;

  async function mountNav(width: number) {
    win = fakeWindow(width);
    const router = createAppRouter(createMemoryHistory());
    await router.push('/chat');
    wrapper = mount(AppNav, { global: { plugins: [router] }, attachTo: document.body });
  }
  const nav = () => wrapper!.get('nav');
  const toggle = () => wrapper!.get('button.nav-toggle');

  it('shows labels in a wide window and icons only in a compact one, every link keeping its name', async () => {
    await mountNav(1280);
    expect(nav().attributes('data-collapsed')).toBe('false');
    expect(nav().classes()).not.toContain('collapsed');
    win.resize(900);
    await nextTick();
    expect(nav().attributes('data-collapsed')).toBe('true');
    const links = wrapper!.findAll('a');
    const labels = NAV_ENTRIES.map((e) => e.label);
    expect(labels.slice(0, 5)).toEqual(['Chat', 'Responses', 'Messages', 'Legacy', 'Compare']);
    expect(links.map((a) => a.text())).toEqual(labels);
    // Collapsed, the label is only hidden from sight: a tooltip names each icon too.
    expect(links.map((a) => a.attributes('title'))).toEqual(labels);
  });

  it('expands and collapses by hand, until the window crosses the breakpoint again', async () => {
    await mountNav(900);
    expect(toggle().attributes('aria-label')).toBe('Expand navigation');
    expect(toggle().attributes('aria-expanded')).toBe('false');
    await toggle().trigger('click');
    expect(nav().attributes('data-collapsed')).toBe('false');
    expect(toggle().attributes('aria-label')).toBe('Collapse navigation');
    expect(wrapper!.findAll('a').every((a) => a.attributes('title') === undefined)).toBe(true);
    win.resize(1280);
    await nextTick();
    win.resize(950);
    await nextTick();
    expect(nav().attributes('data-collapsed')).toBe('true');
  });

  it('stops listening to the window when unmounted', async () => {
    await mountNav(1280);
    expect(win.listeners.size).toBe(1);
    wrapper!.unmount();
    wrapper = undefined;
    expect(win.listeners.size).toBe(0);
  });
});

describe('PlaygroundLayout', () => {
  let win: ReturnType<typeof fakeWindow>;

  function mountLayout(width: number) {
    win = fakeWindow(width);
    const Host = defineComponent(() => () =>
      h(PlaygroundLayout, null, {
        default: () => h('textarea', { 'aria-label': 'Prompt' }),
        side: () => h('input', { id: 'temperature', 'aria-label': 'temperature' }),
      }),
    );
    wrapper = mount(Host, { global: { plugins: [[PrimeVue, { theme: 'none' }]] }, attachTo: document.body });
  }
  const side = () => wrapper!.get('aside');
  const opener = () => wrapper!.find('.side-opener button');

  it('keeps the side column beside the form in a wide window, with no drawer button', () => {
    mountLayout(1280);
    expect(opener().exists()).toBe(false);
    expect(side().classes()).toEqual(expect.arrayContaining(['playground-side', 'sticky']));
    expect(side().classes()).not.toContain('drawer');
  });

  it('in a compact window puts the side column in a closed drawer that the button opens, focusing into it', async () => {
    mountLayout(900);
    expect(side().classes()).toContain('drawer');
    expect(side().classes()).not.toContain('open');
    expect(opener().text()).toBe('Model and parameters');
    expect(opener().attributes('aria-expanded')).toBe('false');
    expect(opener().attributes('aria-controls')).toBe(side().attributes('id'));
    await opener().trigger('click');
    await nextTick();
    expect(side().classes()).toContain('open');
    expect(opener().attributes('aria-expanded')).toBe('true');
    // The first control of the drawer: its close button.
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Close model and parameters');
  });

  it('keeps Tab inside the open drawer, as a modal dialog', async () => {
    mountLayout(900);
    await opener().trigger('click');
    await nextTick();
    expect(side().attributes('role')).toBe('dialog');
    expect(side().attributes('aria-modal')).toBe('true');
    const close = side().get('button');
    const input = side().get('#temperature');
    (input.element as HTMLElement).focus();
    await input.trigger('keydown', { key: 'Tab' });
    expect(document.activeElement).toBe(close.element);
    await close.trigger('keydown', { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(input.element);
  });

  it('closes the drawer with Esc and gives focus back to its button; the side content is never re-created', async () => {
    mountLayout(900);
    const input = side().get('#temperature').element as HTMLInputElement;
    input.value = '0.7';
    await opener().trigger('click');
    await nextTick();
    await side().trigger('keydown', { key: 'Escape' });
    expect(side().classes()).not.toContain('open');
    expect(document.activeElement).toBe(opener().element);
    win.resize(1280);
    await nextTick();
    expect(side().classes()).not.toContain('drawer');
    expect(side().get('#temperature').element).toBe(input);
    expect(input.value).toBe('0.7');
  });
});
