import { describe, expect, it, vi } from 'vitest';
import { keepRouteOnTokenLinks, takeAccessToken, watchAccessToken } from '../../../renderer/src/bridge/access-token';

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
  it('takes a new token in the fragment over the stored one at load (a restart, the new link opened)', () => {
    const s = sources('#token=NEW', { 'workbench.token': 'OLD' });
    expect(takeAccessToken(s.input)).toBe('NEW');
    expect(s.storage.get('workbench.token')).toBe('NEW');
  });

  describe('watchAccessToken()', () => {
    /** A page whose address the test changes as a same-document navigation does. */
    function page(stored: Record<string, string>) {
      const s = sources('', stored);
      const listeners = new Map<string, Set<() => void>>();
      const events = {
        addEventListener: (type: string, cb: () => void) => void (listeners.get(type) ?? listeners.set(type, new Set()).get(type)!).add(cb),
        removeEventListener: (type: string, cb: () => void) => void listeners.get(type)?.delete(cb),
      };
      const navigate = (hash: string, ...types: string[]) => {
        s.input.location.hash = hash;
        for (const type of types) for (const cb of [...(listeners.get(type) ?? [])]) cb();
      };
      s.history.replaceState.mockImplementation((_state: unknown, _unused: string, url: string) => {
        s.input.location.hash = url.includes('#') ? url.slice(url.indexOf('#')) : '';
      });
      return { ...s, events, navigate, listeners };
    }

    it('takes a token pasted into the open tab (no reload): replaces the stored one, strips it, reports it once', () => {
      const p = page({ 'workbench.token': 'OLD' });
      expect(takeAccessToken(p.input)).toBe('OLD');
      const seen: string[] = [];
      watchAccessToken(p.events, p.input, (t) => seen.push(t));
      p.navigate('#token=NEW', 'popstate', 'hashchange');
      expect(seen).toEqual(['NEW']);
      expect(p.storage.get('workbench.token')).toBe('NEW');
      expect(p.input.location.hash).not.toContain('token');
    });

    it('hears the token on hashchange alone too', () => {
      const p = page({ 'workbench.token': 'OLD' });
      const seen: string[] = [];
      watchAccessToken(p.events, p.input, (t) => seen.push(t));
      p.navigate('#token=NEWER', 'hashchange');
      expect(seen).toEqual(['NEWER']);
    });

    it('takes the same token again when it is pasted again (the reconnect is the transport\'s call)', () => {
      const p = page({ 'workbench.token': 'SAME' });
      const seen: string[] = [];
      watchAccessToken(p.events, p.input, (t) => seen.push(t));
      p.navigate('#token=SAME', 'popstate');
      expect(seen).toEqual(['SAME']);
    });

    it('leaves the user on the route shown when the pasted link was only the token', () => {
      const p = page({});
      keepRouteOnTokenLinks(() => '#/videos');
      watchAccessToken(p.events, p.input, () => {});
      p.navigate('#token=NEW', 'popstate');
      expect(p.history.replaceState).toHaveBeenLastCalledWith({ k: 1 }, '', '/?a=1#/videos');
    });

    it('ignores navigations without a token, and stops when asked', () => {
      const p = page({ 'workbench.token': 'OLD' });
      const seen: string[] = [];
      const stop = watchAccessToken(p.events, p.input, (t) => seen.push(t));
      p.navigate('#/history', 'popstate', 'hashchange');
      expect(seen).toEqual([]);
      expect(p.history.replaceState).not.toHaveBeenCalled();
      stop();
      p.navigate('#token=LATE', 'popstate', 'hashchange');
      expect(seen).toEqual([]);
    });
  });
});
