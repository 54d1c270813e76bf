import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { config, flushPromises } from '@vue/test-utils';
import type { FileRef } from '@shared/contract/user-files';
import { button, mountWithApp, type Mounted } from '../../mount-app';

vi.mock('@/bridge/user-files', () => ({
  fileRefsFrom: async (files: File[]) => files.map((f, i): FileRef => ({ ref: `ref_${'E'.repeat(19)}${i}`, name: f.name, size: f.size, type: f.type })),
}));

const { default: DropRouterDialog } = await import('@/components/DropRouterDialog.vue');

let m: Mounted;
// The dialog binds Esc when its opening transition runs: let it run (test-utils stubs transitions).
const stubs = config.global.stubs;
beforeAll(() => (config.global.stubs = { ...stubs, transition: false }));
afterAll(() => (config.global.stubs = stubs));
afterEach(() => m?.wrapper.unmount());

function drop(files: File[]): void {
  const event = new Event('drop', { bubbles: true, cancelable: true });
  Object.defineProperty(event, 'dataTransfer', { value: { types: ['Files'], files, dropEffect: 'none' } });
  document.body.dispatchEvent(event);
}

const dialog = (): HTMLElement | null => document.querySelector('[role="dialog"]');

describe('DropRouterDialog', () => {
  it('opens as a dialog with the actions of a dropped image as buttons, and Esc closes it', async () => {
    m = await mountWithApp(DropRouterDialog, { route: '/models' });
    drop([new File(['png'], 'cat.png', { type: 'image/png' })]);
    await flushPromises();
    expect(dialog()?.getAttribute('aria-modal')).toBe('true');
    expect(dialog()?.textContent).toContain('What to do with cat.png?');
    const actions = [...dialog()!.querySelectorAll('[data-action]')].map((b) => b.textContent?.trim());
    expect(actions).toEqual(['Edit in Images', 'Make a video from it', 'Upload to Files']);
    await vi.waitFor(() => expect(dialog()!.contains(document.activeElement)).toBe(true));
    document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', code: 'Escape', bubbles: true }));
    await vi.waitFor(() => expect(dialog()).toBeNull());
  });

  it('says so when no media action fits, and Upload opens Files with the reference', async () => {
    m = await mountWithApp(DropRouterDialog, { route: '/models' });
    drop([new File(['t'], 'notes.txt', { type: 'text/plain' })]);
    await flushPromises();
    expect(dialog()?.textContent).toContain('No image or video action fits text/plain');
    button(m.wrapper, 'Upload to Files').click();
    await vi.waitFor(() => expect(m.router.currentRoute.value.fullPath).toBe(`/files?upload=ref_${'E'.repeat(19)}0`));
    await vi.waitFor(() => expect(dialog()).toBeNull());
  });
});
