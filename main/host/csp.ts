/**
 * The Content-Security-Policy and companion headers served with the renderer, in browser mode
 * (HTTP headers) and in Electron (headers of the app:// protocol), so both shells run the UI
 * under the same rules: only our own scripts, no eval, no plugins, no framing.
 */

/** Builds the CSP; `connectSrc` adds origins beyond 'self' (browser mode's ws:// URL). */
export function contentSecurityPolicy(connectSrc: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // The component library sets inline styles at run time; scripts stay strict.
    "style-src 'self' 'unsafe-inline'",
    // workbench-media: too, so the waveform player can fetch a recording it draws (Electron).
    `connect-src ${["'self'", 'workbench-media:', ...connectSrc].join(' ')}`,
    // workbench-media: is Electron's blob scheme (browser mode serves blobs from 'self').
    "img-src 'self' data: blob: workbench-media:",
    "media-src 'self' blob: data: workbench-media:",
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers every renderer response carries. */
export function securityHeaders(connectSrc: readonly string[] = []): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(connectSrc),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
  };
}
