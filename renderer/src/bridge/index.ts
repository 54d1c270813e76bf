/**
 * The renderer's one door to the workbench process: in Electron the preload's `window.workbench`
 * (a reply API: failures arrive as data, since contextBridge would strip a thrown error) turned
 * into the page's API by `fromReplyApi`, or in browser mode the same two layers over a WebSocket.
 *
 * `bridgeStatus` is a read-only Vue shallowRef of the connection ('connecting' | 'connected' |
 * 'disconnected' | 'no-token' | 'unauthorized'); in Electron it is always 'connected'. Show "Disconnected from the
 * workbench process" while it is 'disconnected'.
 *
 * Import this module before the router is created: it removes `#token=...` from the URL, and its
 * listener for a token pasted later (a new link after a restart) must run before the router's.
 */
import { readonly, shallowRef, type ShallowRef } from 'vue';
import { createWorkbenchApi } from '../../../shared/contract/bridge';
import type { WorkbenchApi } from '../../../shared/contract/api';
import { fromReplyApi } from '../../../shared/contract/page-api';
import { takeAccessToken, watchAccessToken } from './access-token';
import { createWsTransport, type BridgeStatus, type SocketLike } from './ws-transport';
import { createLanePoster, setPageLane } from './upload-lane';

export type { BridgeStatus } from './ws-transport';
export { keepRouteOnTokenLinks } from './access-token';

function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** `/health` with the token: 401/403 means the process is up and refuses it. */
async function probeHealth(token: string): Promise<'ok' | 'unauthorized' | 'unreachable'> {
  try {
    const res = await fetch('/health', { headers: { Authorization: `Bearer ${token}` }, cache: 'no-store' });
    if (res.status === 401 || res.status === 403) return 'unauthorized';
    return res.ok ? 'ok' : 'unreachable';
  } catch {
    return 'unreachable';
  }
}

function createBridge(): { api: WorkbenchApi; status: ShallowRef<BridgeStatus>; kind: 'electron' | 'websocket' } {
  if (window.workbench) return { api: fromReplyApi(window.workbench), status: shallowRef<BridgeStatus>('connected'), kind: 'electron' };
  const sources = { location: window.location, history: window.history, storage: sessionStorageOrNull() };
  let token = takeAccessToken(sources);
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const transport = createWsTransport({
    url: `${scheme}://${window.location.host}/ws`,
    token: token ?? '',
    connect: (url, protocols) => new WebSocket(url, protocols) as unknown as SocketLike,
    probe: (offered) => probeHealth(offered),
  });
  const status = shallowRef<BridgeStatus>(token ? transport.status() : 'no-token');
  transport.onStatus((next) => {
    // Without a token the refusal is expected: say the token is missing, not that it is wrong.
    status.value = token || next === 'connected' ? next : 'no-token';
  });
  // The newly printed link pasted into this tab (a same-document navigation): reconnect with it.
  watchAccessToken(window, sources, (next) => {
    token = next;
    transport.setToken(next);
  });
  // Uploads post their slices to this server with the same token (upload-lane.ts).
  setPageLane(createLanePoster({ base: '', token: () => token ?? '' }));
  return { api: createWorkbenchApi(transport), status, kind: 'websocket' };
}

const bridge = createBridge();

/** The typed contract API (see shared/contract/api.ts). */
export const workbench: WorkbenchApi = bridge.api;
/** Connection state for the UI (read-only). */
export const bridgeStatus: Readonly<ShallowRef<BridgeStatus>> = readonly(bridge.status) as Readonly<ShallowRef<BridgeStatus>>;
/** Which transport is in use. */
export const bridgeKind: 'electron' | 'websocket' = bridge.kind;
