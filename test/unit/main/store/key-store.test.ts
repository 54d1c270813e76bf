import { describe, expect, it } from 'vitest';
import { createMemoryKeyStore } from '../../../../main/store/key-store';

describe('key-store', () => {
  describe('createMemoryKeyStore()', () => {
    it('stores, replaces and forgets keys per profile', () => {
      const store = createMemoryKeyStore('unavailable');
      expect(store.backend).toBe('unavailable');
      store.set('a', 'sk-1');
      store.set('a', 'sk-2');
      store.set('b', 'sk-3');
      store.delete('b');
      expect([store.get('a'), store.get('b')]).toEqual(['sk-2', null]);
    });
  });
});
