/**
 * Why a service WebSocket ended, as an ApiError a person can act on (or null for a normal end).
 * The close code says who decided and why (RFC 6455 §7.4; 4000-4999 are the service's own); a
 * cause the client saw itself (a message over the size limit, a dead peer, a failed frame) is
 * more precise than the code the socket then closed with, so it wins. Pure.
 */
import { formatBytes } from '../../shared/byte-size';
import { apiErrorFromResponse, type ApiError, type ApiErrorKind } from './errors';

/** What the client itself saw before the socket closed, if anything. */
export type CloseCause =
  | { kind: 'too_large_in'; limitBytes: number }
  | { kind: 'dead_peer'; waitedMs: number }
  | { kind: 'cancelled' }
  | { kind: 'socket_error'; message: string }
  | { kind: 'client_closed' };

export interface CloseInfo {
  code: number;
  reason: string;
  /** host:port, for messages. */
  host: string;
  cause: CloseCause | null;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

function error(kind: ApiErrorKind, code: number | string, message: string): ApiError {
  return { kind, status: null, code: typeof code === 'number' ? `ws_${code}` : code, message, requestId: null };
}

/** " The service said: …" when it gave a reason. */
function said(reason: string): string {
  const r = reason.trim();
  return r === '' ? '' : ` The service said: "${r.replace(/\.$/, '')}".`;
}

/**
 * The error for a closed socket, or null when it ended normally (1000, or 1005 "no code", or
 * the client's own close). `reason` is the service's close reason (already scrubbed).
 */
export function closeError(info: CloseInfo): ApiError | null {
  const { code, reason, host, cause } = info;
  const kept = 'What arrived before is kept.';
  if (cause?.kind === 'too_large_in') {
    return error('protocol', 1009, `${host} sent a WebSocket message larger than ${formatBytes(cause.limitBytes)}, the most the workbench accepts in one message, so the connection was closed. ${kept}`);
  }
  if (cause?.kind === 'dead_peer') {
    return error('timeout', 'ws_dead_peer', `${host} stopped answering: no reply to a keep-alive ping within ${seconds(cause.waitedMs)}, so the connection was closed. ${kept} Check the network, then reconnect.`);
  }
  if (cause?.kind === 'cancelled') return { kind: 'cancelled', status: null, code: null, message: 'Cancelled.', requestId: null };
  if (cause?.kind === 'socket_error' && (code === 1006 || code === 1002 || code === 1007)) {
    return error('protocol', code, `The WebSocket to ${host} failed: ${cause.message.replace(/\.$/, '')}. ${kept}`);
  }
  if (cause?.kind === 'client_closed' && (code === 1000 || code === 1005 || code === 1006)) return null;
  switch (code) {
    case 1000:
    case 1005:
      return null;
    case 1001:
      return error('network', code, `${host} went away (1001: the service is shutting down or restarting).${said(reason)} ${kept} Reconnect in a moment.`);
    case 1002:
      return error('protocol', code, `${host} closed the connection for a WebSocket protocol error (1002).${said(reason)} ${kept}`);
    case 1003:
      return error('protocol', code, `${host} refused a kind of message it does not accept (1003), e.g. binary audio where it expects JSON.${said(reason)} ${kept}`);
    case 1006:
      return error('network', code, `The connection to ${host} dropped without a close message (1006): the network failed or the service stopped. ${kept} Reconnect to go on.`);
    case 1007:
      return error('protocol', code, `${host} closed the connection because a message was not valid for its type (1007), e.g. text that is not UTF-8.${said(reason)} ${kept}`);
    case 1008:
      return error('http', code, `${host} closed the connection for a policy violation (1008).${said(reason)} This usually means the key or client secret was refused or expired, or a message broke the service's rules. ${kept}`);
    case 1009:
      return error('protocol', code, `${host} closed the connection because a message the workbench sent was too large for it (1009).${said(reason)} Send smaller pieces (shorter text deltas or audio chunks). ${kept}`);
    case 1010:
      return error('protocol', code, `${host} did not agree to a WebSocket extension the workbench needs (1010).${said(reason)}`);
    case 1011:
      return error('http', code, `${host} hit an internal error and closed the connection (1011).${said(reason)} ${kept} Try again.`);
    case 1012:
      return error('http', code, `${host} is restarting (1012).${said(reason)} ${kept} Reconnect in a moment.`);
    case 1013:
      return error('http', code, `${host} is overloaded and asked to try again later (1013).${said(reason)} ${kept}`);
    case 1014:
      return error('network', code, `A gateway in front of ${host} got a bad answer (1014).${said(reason)} ${kept} Try again.`);
    case 1015:
      return error('network', code, `The TLS handshake with ${host} failed (1015). Check the base URL and certificates.`);
    default:
      break;
  }
  if (code >= 4000 && code <= 4999) {
    // Services often send 4000 + an HTTP status (4401, 4403, 4429): read it with that status's advice.
    const status = code - 4000;
    if (status >= 400 && status <= 599) {
      const http = apiErrorFromResponse(status, {}, reason.trim() || 'no details given');
      return { ...http, status: null, code: `ws_${code}`, message: `${host} closed the connection with code ${code}. ${http.message}. ${kept}`.replace(/\.\. /, '. ') };
    }
    return error('http', code, `${host} closed the connection with its own code ${code}.${said(reason) || ' It gave no reason.'} ${kept}`);
  }
  return error('protocol', code, `${host} closed the connection with code ${code}.${said(reason)} ${kept}`);
}
