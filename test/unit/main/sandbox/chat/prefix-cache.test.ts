import { describe, expect, it } from 'vitest';
import { PrefixCache } from '../../../../../main/sandbox/chat/prefix-cache';

const sys = { role: 'system', content: 'Be brief.' };
const u1 = { role: 'user', content: 'Hi' };
const a1 = { role: 'assistant', content: 'Hello' };
const u2 = { role: 'user', content: 'Bye' };

describe('sandbox/chat/prefix-cache', () => {
  describe('PrefixCache.lookupAndStore()', () => {
    it('reports the tokens of the longest earlier-seen message prefix', () => {
      const cache = new PrefixCache();
      expect(cache.lookupAndStore('team:svc-4', [sys, u1], [6, 10])).toBe(0);
      expect(cache.lookupAndStore('team:svc-4', [sys, u1, a1, u2], [6, 10, 15, 19])).toBe(10);
      expect(cache.lookupAndStore('team:svc-4', [sys, u1, a1, u2], [6, 10, 15, 19])).toBe(19);
    });

    it('keeps scopes (team and model) apart', () => {
      const cache = new PrefixCache();
      cache.lookupAndStore('a:svc-4', [sys, u1], [6, 10]);
      expect(cache.lookupAndStore('b:svc-4', [sys, u1], [6, 10])).toBe(0);
      expect(cache.lookupAndStore('a:svc-4-fast', [sys, u1], [6, 10])).toBe(0);
    });

    it('forgets the oldest prefixes beyond its size', () => {
      const cache = new PrefixCache(2);
      cache.lookupAndStore('s', [sys], [6]);
      cache.lookupAndStore('s', [u1], [4]);
      cache.lookupAndStore('s', [u2], [4]);
      expect(cache.lookupAndStore('s', [sys], [6])).toBe(0);
    });
  });
});
