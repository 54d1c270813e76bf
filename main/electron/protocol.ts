/**
 * The app:// scheme: registered as privileged before `ready` (standard, secure, fetch), then
 * served from out/renderer with the same CSP and headers as browser mode. Anything outside the
 * renderer folder or on another host is refused.
 */
import { protocol } from 'electron';
import { readFile } from 'node:fs/promises';
import { securityHeaders } from '../host/csp';
import { resolveStaticFile } from '../host/static-files';
import { APP_HOST, APP_SCHEME } from './app-origin';
import { MEDIA_SCHEME } from './media-protocol';

/** Must run before `app` is ready. Registers app:// and workbench-media:// (one call: a second would replace the first). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } },
    { scheme: MEDIA_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } },
  ]);
}

/** Answers one app:// request from `rendererDir`. */
export async function appProtocolResponse(rendererDir: string, requestUrl: string, method = 'GET'): Promise<Response> {
  const headers = securityHeaders();
  const refuse = (status: number) => new Response(null, { status, headers });
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return refuse(400);
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return refuse(404);
  if (method !== 'GET' && method !== 'HEAD') return refuse(405);
  const found = await resolveStaticFile(rendererDir, url.pathname);
  if (!found.ok) return refuse(found.status);
  const body = method === 'HEAD' ? null : await readFile(found.path);
  return new Response(body, {
    status: 200,
    headers: { ...headers, 'Content-Type': found.contentType, 'Cache-Control': found.isIndex ? 'no-store' : 'no-cache' },
  });
}

/** Serves app:// once the app is ready; returns the disposer. */
export function setupAppProtocol(rendererDir: string): () => void {
  protocol.handle(APP_SCHEME, (request) => appProtocolResponse(rendererDir, request.url, request.method));
  return () => protocol.unhandle(APP_SCHEME);
}
