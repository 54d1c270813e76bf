import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { provideWorkbench } from '@/api';
import { useConnectionsStore } from '@/stores/connections';
import { createFakeWorkbench, type FakeWorkbench } from '../fake-workbench';

let fake: FakeWorkbench;

beforeEach(() => {
  setActivePinia(createPinia());
  fake = createFakeWorkbench({ keyWarning: 'keys are stored as plain text' });
  provideWorkbench(fake);
});

describe('connections store', () => {
  describe('load()', () => {
    it('starts on the sandbox and exposes the key-storage warning', async () => {
      const c = useConnectionsStore();
      await c.load();
      expect(c.active?.id).toBe('sandbox');
      expect(c.isSandbox).toBe(true);
      expect(c.keyWarning).toBe('keys are stored as plain text');
    });

    it('follows changes pushed by main (another window switched connection)', async () => {
      const c = useConnectionsStore();
      await c.load();
      const saved = await c.save({ name: 'Prod', baseUrl: 'https://api.example.com', apiKey: 'k' });
      fake.controls.emitConnectionsChanged({ ...c.state!, activeId: saved.id });
      expect(c.active?.name).toBe('Prod');
      expect(c.isSandbox).toBe(false);
    });
  });

  describe('save()', () => {
    it('omits an empty key so the stored one is kept', async () => {
      const c = useConnectionsStore();
      await c.save({ id: 'remote-9', name: 'X', baseUrl: 'https://x.example.com', apiKey: '' });
      expect(fake.controls.calls.find((x) => x.method === 'connections.save')?.input).toEqual({ id: 'remote-9', name: 'X', baseUrl: 'https://x.example.com' });
    });
  });

  describe('select()', () => {
    it('rejects an unknown profile with not_found and keeps the active one', async () => {
      const c = useConnectionsStore();
      await c.load();
      await expect(c.select('nope')).rejects.toMatchObject({ error: { code: 'not_found' } });
      expect(c.activeId).toBe('sandbox');
    });
  });
});
