import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { defineComponent, h } from 'vue';
import App from '@/App.vue';
import { useCommand } from '@/composables/use-command';
import { shortcutList } from '@/lib/shortcuts';
import { NAV_ENTRIES } from '@shared/families';
import { button, mountWithApp, type Mounted } from '../mount-app';

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  document.body.innerHTML = '';
});

const press = (init: KeyboardEventInit, target: EventTarget = document.activeElement ?? document.body): KeyboardEvent => {
  const e = new KeyboardEvent('keydown', { cancelable: true, bubbles: true, ...init });
  target.dispatchEvent(e);
  return e;
};
/** Views load lazily: on a busy machine the first load of each takes seconds. */
const SLOW = { timeout: 10_000 };
const promptFocused = (): boolean => document.activeElement?.hasAttribute('data-prompt') ?? false;

describe('use-app-shortcuts', () => {
  it('opens each view in nav order on Alt+digit and puts the focus in its prompt', async () => {
    m = await mountWithApp(App, { route: '/chat' });
    expect(press({ key: '2', code: 'Digit2', altKey: true }).defaultPrevented).toBe(true);
    await vi.waitFor(() => expect(m.router.currentRoute.value.path).toBe('/responses'), SLOW);
    await vi.waitFor(() => expect(document.activeElement?.id).toBe('responses-input'), SLOW);

    press({ key: '4', code: 'Digit4', altKey: true });
    await vi.waitFor(() => expect(m.router.currentRoute.value.path).toBe('/legacy'), SLOW);
    await vi.waitFor(() => expect(promptFocused()).toBe(true), SLOW);

    const historyDigit = NAV_ENTRIES.findIndex((e) => e.route === '/history') + 1;
    press({ key: String(historyDigit), code: `Digit${historyDigit}`, altKey: true });
    await vi.waitFor(() => expect(m.router.currentRoute.value.path).toBe('/history'), SLOW);
    // A control with the focus never sees a key the app ran (a Select would open and search on it).
    const field = document.body.appendChild(document.createElement('input'));
    const seen: string[] = [];
    field.addEventListener('keydown', (e) => seen.push(e.key));
    field.focus();
    press({ key: '1', code: 'Digit1', altKey: true });
    press({ key: 'x', code: 'KeyX', altKey: true });
    expect(seen).toEqual(['x']);
    await vi.waitFor(() => expect(m.router.currentRoute.value.path).toBe('/chat'), SLOW);
    // Ctrl+digit is the browser's (tab switching): left alone.
    expect(press({ key: '1', code: 'Digit1', ctrlKey: true }).defaultPrevented).toBe(false);
  }, 30_000);

  it('focuses the prompt on Alt+P from anywhere and on "/" only when not typing in a field', async () => {
    m = await mountWithApp(App, { route: '/chat' });
    await flushPromises();
    (document.querySelector('#system-prompt') as HTMLElement).focus();
    expect(press({ key: '/' }).defaultPrevented).toBe(false);
    expect(document.activeElement?.id).toBe('system-prompt');
    press({ key: 'p', code: 'KeyP', altKey: true });
    expect(promptFocused()).toBe(true);
    (document.querySelector('nav a') as HTMLElement).focus();
    expect(press({ key: '/' }).defaultPrevented).toBe(true);
    expect(promptFocused()).toBe(true);
  });

  it('runs the view\'s "playground.new" on Alt+N, and leaves the key alone where no view handles it', async () => {
    const started: string[] = [];
    const Probe = defineComponent({
      setup() {
        useCommand('playground.new', () => started.push('new'));
        return () => h('div');
      },
    });
    m = await mountWithApp(App, { route: '/models' });
    expect(press({ key: 'n', code: 'KeyN', altKey: true }, document.body).defaultPrevented).toBe(false);
    m.wrapper.unmount();
    m = await mountWithApp(defineComponent({ components: { App, Probe }, setup: () => () => h('div', [h(App), h(Probe)]) }));
    expect(press({ key: 'n', code: 'KeyN', altKey: true }, document.body).defaultPrevented).toBe(true);
    expect(started).toEqual(['new']);
  });

  it('lists every shortcut of the table in the sheet, and gives the focus back to the prompt when it closes', async () => {
    m = await mountWithApp(App, { route: '/chat' });
    button(m.wrapper, 'Keyboard shortcuts').click();
    // The sheet's code loads when it is first opened.
    await vi.waitFor(() => expect(document.querySelectorAll('.shortcuts tr').length).toBeGreaterThan(0));
    const rows = [...document.querySelectorAll('.shortcuts tr')].map((tr) => tr.textContent);
    expect(rows).toHaveLength(shortcutList().length);
    expect(rows).toContain('Alt+1Open Chat');
    expect(rows).toContain(`Alt+${NAV_ENTRIES.findIndex((e) => e.route === '/history') + 1}Open History`);
    // Only Alt+1..9 exist (one key each): the nav entries past the ninth have none.
    expect(shortcutList().filter((s) => s.command?.startsWith('go:')).map((s) => s.keys)).toEqual(NAV_ENTRIES.slice(0, 9).map((_, i) => `Alt+${i + 1}`));
    expect(rows).toContain('Alt+NStart a new draft in this playground');

    button(m.wrapper, 'Close').click();
    await vi.waitFor(() => expect(document.querySelector('.shortcuts')).toBeNull());
    await vi.waitFor(() => expect(promptFocused()).toBe(true));
  });

  it('gives the focus back to the prompt after a click on Send', async () => {
    m = await mountWithApp(App, { route: '/chat', fake: { chatMode: 'manual' } });
    await flushPromises();
    const prompt = document.querySelector('[data-prompt]') as HTMLTextAreaElement;
    prompt.value = 'Hello';
    prompt.dispatchEvent(new Event('input'));
    await flushPromises();
    const send = button(m.wrapper, 'Send');
    send.focus();
    send.click();
    await vi.waitFor(() => expect(promptFocused()).toBe(true));
  });
});
