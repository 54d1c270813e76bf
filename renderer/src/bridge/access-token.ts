/**
 * The browser-mode access token: arrives in the URL fragment (`#token=...`), is moved to
 * sessionStorage (so a reload of this tab still works) and removed from the address bar (so it is
 * not bookmarked, shared in a screenshot, or kept in history).
 *
 * A token in the fragment always wins over the stored one, at load AND later: after a restart of
 * the process the user pastes its new link into the tab that is already open, and a link that
 * differs only in its `#…` is a same-document navigation (popstate/hashchange, no reload), so
 * `watchAccessToken` takes it from there too.
 */

const STORAGE_KEY = 'workbench.token';

/** The fragment of the route shown (`#/videos`), put back when a pasted link was only a token. */
let shownRoute: (() => string) | null = null;

export interface TokenSources {
  location: { hash: string; pathname: string; search: string };
  history: { state: unknown; replaceState(state: unknown, unused: string, url: string): void };
  storage: { getItem(key: string): string | null; setItem(key: string, value: string): void } | null;
}

/** Where same-document navigations are heard (the window). */
export interface NavigationEvents {
  addEventListener(type: 'popstate' | 'hashchange', listener: () => void): void;
  removeEventListener(type: 'popstate' | 'hashchange', listener: () => void): void;
}

/**
 * Tells the watcher which route the page shows, so a pasted `…/#token=…` leaves the user where
 * they were instead of sending the router to `/`. main.ts sets it once the router exists.
 */
export function keepRouteOnTokenLinks(route: () => string): void {
  shownRoute = route;
}

/** Returns the token (from the fragment, else this tab's storage) and strips it from the URL. */
export function takeAccessToken(sources: TokenSources): string | null {
  return tokenFromFragment(sources) ?? storedToken(sources.storage);
}

/**
 * Takes every token that arrives in the fragment after load (the user pasted the newly printed
 * link into this tab): it replaces the stored one and `onToken` is told. Listen before the router
 * does (its popstate handler would otherwise read `#token=…` as a route and redirect it away).
 * Returns the function that stops listening.
 */
export function watchAccessToken(events: NavigationEvents, sources: TokenSources, onToken: (token: string) => void): () => void {
  const listener = () => {
    const token = tokenFromFragment(sources, shownRoute);
    if (!token) return;
    onToken(token);
  };
  // Chromium and Firefox fire popstate first and hashchange a task later; either may be the one
  // that still sees the token (the first one strips it), so both are heard.
  events.addEventListener('popstate', listener);
  events.addEventListener('hashchange', listener);
  return () => {
    events.removeEventListener('popstate', listener);
    events.removeEventListener('hashchange', listener);
  };
}

/** The fragment's token, moved to storage and removed from the address bar; null without one. */
function tokenFromFragment({ location, history, storage }: TokenSources, routeIfEmpty: (() => string) | null = null): string | null {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const fromHash = params.get('token');
  if (!fromHash) return null;
  try {
    storage?.setItem(STORAGE_KEY, fromHash);
  } catch {
    // Storage can be disabled; the token still works for this page load.
  }
  params.delete('token');
  const rest = params.toString();
  const fragment = rest ? `#${rest}` : (routeIfEmpty?.() ?? '');
  history.replaceState(history.state, '', `${location.pathname}${location.search}${fragment}`);
  return fromHash;
}

function storedToken(storage: TokenSources['storage']): string | null {
  try {
    return storage?.getItem(STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}
