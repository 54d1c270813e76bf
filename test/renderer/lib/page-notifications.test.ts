import { describe, expect, it } from 'vitest';
import { createNotifyClaims, type LockManagerLike } from '@/lib/page-notifications';

/** A Storage shared by the "tabs" of a test, as localStorage is by the tabs of one origin. */
function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => void map.set(k, String(v)),
  };
}

/** One exclusive lock shared by the "tabs": the first holds it until it lets go, then the next in line. */
function sharedLocks(): LockManagerLike {
  const queue: (() => Promise<void>)[] = [];
  let held = false;
  const next = (): void => {
    const cb = queue.shift();
    if (!cb) return;
    held = true;
    void cb().finally(() => {
      held = false;
      next();
    });
  };
  return {
    request(_name, cb) {
      queue.push(cb);
      if (!held) next();
      return Promise.resolve();
    },
  };
}

describe('page-notifications', () => {
  describe('createNotifyClaims()', () => {
    it('claims a key once, however often it is asked', () => {
      const claims = createNotifyClaims({ locks: null, storage: memoryStorage() });
      expect([claims.claim('video:a'), claims.claim('video:a'), claims.claim('video:b')]).toEqual([true, false, true]);
    });

    it('lets only the tab holding the lock speak; the next takes over when it goes', async () => {
      const locks = sharedLocks();
      const storage = memoryStorage();
      const first = createNotifyClaims({ locks, storage });
      const second = createNotifyClaims({ locks, storage });
      await Promise.resolve();
      expect(second.claim('video:a')).toBe(false);
      expect(first.claim('video:a')).toBe(true);
      first.dispose();
      await new Promise((r) => setTimeout(r, 0));
      expect(second.claim('video:a')).toBe(false);
      expect(second.claim('video:b')).toBe(true);
    });

    it('without Web Locks, two tabs sharing localStorage claim a key once between them', () => {
      const storage = memoryStorage();
      const a = createNotifyClaims({ locks: null, storage });
      const b = createNotifyClaims({ locks: null, storage });
      expect(a.claim('video:x')).toBe(true);
      expect(b.claim('video:x')).toBe(false);
    });
  });
});
