/**
 * The renderer's origin in Electron: `app://workbench/`, a privileged standard scheme served from
 * out/renderer (see protocol.ts). No file:// anywhere, so the page has a real origin for CSP,
 * navigation checks and the IPC sender check.
 */

export const APP_SCHEME = 'app';
export const APP_HOST = 'workbench';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** What the window loads. */
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** True when `url` is on our own origin (the scheme is standard, so the host is parsed). */
export function isAppUrl(url: string | undefined | null): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && !parsed.username && !parsed.password;
  } catch {
    return false;
  }
}

/** True for links the user may open in their own browser (after confirming). */
export function isExternalWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}
