import { describe, expect, it, vi } from 'vitest';
import { currentAccessToken, takeAccessToken } from '../../../renderer/src/bridge/access-token';

function sources(hash: string, stored: Record<string, string> = {}) {
  const storage = new Map(Object.entries(stored));
  const history = { state: { k: 1 }, replaceState: vi.fn() };
  return {
    storage,
    history,
    input: {
      location: { hash, pathname: '/', search: '?a=1' },
      history,
      storage: { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v) },
    },
  };
}

describe('access-token', () => {
  describe('takeAccessToken()', () => {
    it('takes the token from the fragment, keeps it for reloads and removes it from the address bar', () => {
      const s = sources('#token=abc_DEF-123');
      expect(takeAccessToken(s.input)).toBe('abc_DEF-123');
      expect(s.storage.get('workbench.token')).toBe('abc_DEF-123');
      expect(s.history.replaceState).toHaveBeenCalledWith({ k: 1 }, '', '/?a=1');
      expect(currentAccessToken()).toBe('abc_DEF-123');
    });

    it('keeps the rest of the fragment', () => {
      const s = sources('#token=abc&view=chat');
      takeAccessToken(s.input);
      expect(s.history.replaceState).toHaveBeenCalledWith({ k: 1 }, '', '/?a=1#view=chat');
    });

    it('uses the stored token after a reload, leaving the URL alone', () => {
      const s = sources('#/history', { 'workbench.token': 'kept' });
      expect(takeAccessToken(s.input)).toBe('kept');
      expect(s.history.replaceState).not.toHaveBeenCalled();
    });

    it('returns null when the page was opened without a token', () => {
      expect(takeAccessToken(sources('').input)).toBeNull();
      expect(takeAccessToken({ ...sources('').input, storage: null })).toBeNull();
    });
  });
});
