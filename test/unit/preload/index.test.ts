// The preload exposes `window.workbench`, shaped by the contract, `window.workbenchFiles` and
// `window.workbenchMedia` (frame bytes to the media process; the port stays in the preload): no
// raw ipcRenderer, no generic invoke, and callbacks never receive the IpcRendererEvent.
import { describe, expect, it, vi } from 'vitest';
import { contract } from '../../../shared/contract/index';
import { eventMethodName } from '../../../shared/contract/define';
import { createFakeWindow } from '../../integration/transports/fake-electron';

const page = vi.hoisted(() => ({ exposed: new Map<string, unknown>() }));
const fake = createFakeWindow();

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, value: unknown) => page.exposed.set(key, value) },
  ipcRenderer: fake.ipcRenderer,
  webUtils: { getPathForFile: () => '' },
}));

await import('../../../preload/index');

describe('preload', () => {
  it('exposes only window.workbench, window.workbenchFiles and window.workbenchMedia (one method each, frozen)', () => {
    expect([...page.exposed.keys()]).toEqual(['workbench', 'workbenchFiles', 'workbenchMedia']);
    const files = page.exposed.get('workbenchFiles') as Record<string, unknown>;
    expect(Object.keys(files)).toEqual(['pathRef']);
    expect(Object.isFrozen(files)).toBe(true);
    const media = page.exposed.get('workbenchMedia') as Record<string, unknown>;
    expect(Object.keys(media)).toEqual(['open']);
    expect(Object.isFrozen(media)).toBe(true);
  });

  it('offers exactly the contract’s operations and event subscriptions, nothing generic', () => {
    const api = page.exposed.get('workbench') as Record<string, Record<string, unknown>>;
    const expected = Object.fromEntries(
      Object.entries(contract).map(([family, ops]) => [
        family,
        Object.entries(ops)
          .map(([name, op]) => (op.kind === 'event' ? eventMethodName(name) : name))
          .sort(),
      ]),
    );
    const actual = Object.fromEntries(Object.entries(api).map(([family, methods]) => [family, Object.keys(methods).sort()]));
    expect(actual).toEqual(expected);
    expect(Object.isFrozen(api)).toBe(true);
  });

  it('resolves failures as data (contextBridge would keep only an Error’s message)', async () => {
    // No ipcMain handler is registered here: the call fails, and the reply says how.
    const api = page.exposed.get('workbench') as { app: { info(): Promise<unknown> } };
    await expect(api.app.info()).resolves.toMatchObject({ ok: false, error: { code: 'unknown_method' } });
  });

  it('hands event callbacks the payload only', async () => {
    const api = page.exposed.get('workbench') as { connections: { onChanged(cb: (...args: unknown[]) => void): () => void } };
    const calls: unknown[][] = [];
    const off = api.connections.onChanged((...args) => calls.push(args));
    fake.webContents.send('connections.changed', { activeId: 'x' });
    await new Promise((resolve) => fake.ipcRenderer.enqueue(() => resolve(null)));
    off();
    expect(calls).toEqual([[{ activeId: 'x' }]]);
    expect(fake.ipcRenderer.listenerCount('connections.changed')).toBe(0);
  });
});
