/**
 * The browser-mode access token: arrives in the URL fragment (`#token=...`), is moved to
 * sessionStorage (so a reload of this tab still works) and removed from the address bar (so it is
 * not bookmarked, shared in a screenshot, or kept in history).
 */

const STORAGE_KEY = 'workbench.token';

/** The token this page took, for the HTTP routes that need it too (POST /stage). */
let taken: string | null = null;

export interface TokenSources {
  location: { hash: string; pathname: string; search: string };
  history: { state: unknown; replaceState(state: unknown, unused: string, url: string): void };
  storage: { getItem(key: string): string | null; setItem(key: string, value: string): void } | null;
}

/** Returns the token (from the fragment, else this tab's storage) and strips it from the URL. */
export function takeAccessToken(sources: TokenSources): string | null {
  taken = readToken(sources);
  return taken;
}

/** The token `takeAccessToken` found for this page (null before, in Electron, or with none). */
export function currentAccessToken(): string | null {
  return taken;
}

function readToken({ location, history, storage }: TokenSources): string | null {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const fromHash = params.get('token');
  if (fromHash) {
    try {
      storage?.setItem(STORAGE_KEY, fromHash);
    } catch {
      // Storage can be disabled; the token still works for this page load.
    }
    params.delete('token');
    const rest = params.toString();
    history.replaceState(history.state, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`);
    return fromHash;
  }
  try {
    return storage?.getItem(STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}
