/**
 * Limits on what clients may hold open on browser mode's loopback server. The token keeps
 * strangers out of the contract, but not out of the TCP port: any local program can open sockets,
 * trickle headers, or hold kept-alive connections. Those are held apart from the page's own
 * (socket-gate.ts): few, short-lived, and closed to make room for new ones, so they cannot lock
 * the page out. Sockets that proved the token (a runaway script of the user's) are bounded per
 * remote address without affecting a person with a handful of tabs; all clients are local, so in
 * practice the per-client limit is the total.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { SocketGate } from './socket-gate';

export { PerClientCounter } from './per-client-counter';

export interface ConnectionLimits {
  /** TCP connections one address may hold once they proved the token (HTTP keep-alive and WebSockets together). */
  socketsPerClient: number;
  /** Connections that have not (yet) proved the token, all addresses together; at the limit the oldest idle one is closed. */
  unauthenticatedSockets: number;
  /** A connection without the token that has no request in flight (or moves no bytes) for this long is closed. */
  unauthenticatedIdleMs: number;
  /** WebSocket sessions (tabs) one address may hold at once. */
  webSocketsPerClient: number;
  /** Time a client has to send its request headers; a slower one is disconnected. */
  headersTimeoutMs: number;
  /** A connection with no bytes either way for this long is closed (Node applies it to a connection's first request). */
  idleTimeoutMs: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  socketsPerClient: 256,
  // A browser opens about 6 connections per origin; a few tabs loading at once stay well under.
  unauthenticatedSockets: 32,
  unauthenticatedIdleMs: 5_000,
  webSocketsPerClient: 32,
  headersTimeoutMs: 10_000,
  idleTimeoutMs: 120_000,
};

/**
 * Applies the socket limits and the time limits to `server` and returns the gate that tells the
 * page's sockets from the rest (the server calls `authenticate` when a request proves the token).
 * Node checks header deadlines on a timer (`connectionsCheckingInterval`, set where the server is
 * created); the whole-request timeout is off because an upload of gigabytes may take longer than
 * any fixed bound — the upload route times out a body that stalls instead.
 */
export function applyConnectionLimits(server: Server, limits: ConnectionLimits, log: (line: string) => void): SocketGate {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = 0;
  server.timeout = limits.idleTimeoutMs;
  const gate = new SocketGate(
    { unauthenticated: limits.unauthenticatedSockets, idleMs: limits.unauthenticatedIdleMs, authenticatedPerClient: limits.socketsPerClient },
    log,
  );
  server.on('connection', (socket: Socket) => gate.admit(socket));
  server.on('request', (req, res) => {
    gate.requestStarted(req.socket);
    res.once('close', () => gate.requestEnded(req.socket));
  });
  // An upgrade is in flight until it is refused (the socket ends) or accepted (authenticated first).
  server.on('upgrade', (req) => gate.requestStarted(req.socket));
  server.once('close', () => gate.dispose());
  return gate;
}
