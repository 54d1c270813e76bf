/**
 * Limits on what one client may hold open on browser mode's loopback server. The token keeps
 * strangers out of the contract, but not out of the TCP port: any local program can open sockets,
 * trickle headers, or (with the token, e.g. a runaway script of the user's) open thousands of
 * WebSockets. Counting per remote address bounds each of them without affecting a person with a
 * handful of tabs. All clients are local, so in practice the per-client limit is the total.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  /** TCP connections one address may hold at once (HTTP keep-alive and WebSockets together). */
  socketsPerClient: number;
  /** WebSocket sessions (tabs) one address may hold at once. */
  webSocketsPerClient: number;
  /** Time a client has to send its request headers; a slower one is disconnected. */
  headersTimeoutMs: number;
  /** A connection with no bytes either way for this long is closed (uploads that stalled included). */
  idleTimeoutMs: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  socketsPerClient: 256,
  webSocketsPerClient: 32,
  headersTimeoutMs: 10_000,
  idleTimeoutMs: 120_000,
};

/** Counts what each address holds; `tryOpen` says whether one more is allowed and counts it. */
export class PerClientCounter {
  private readonly open = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** Counts one more for `address`, or returns false (and counts nothing) at the limit. */
  tryOpen(address: string): boolean {
    const held = this.open.get(address) ?? 0;
    if (held >= this.limit) return false;
    this.open.set(address, held + 1);
    return true;
  }

  release(address: string): void {
    const held = (this.open.get(address) ?? 1) - 1;
    if (held <= 0) this.open.delete(address);
    else this.open.set(address, held);
  }
}

/**
 * Applies the socket limit and the time limits to `server`. Node checks header deadlines on a
 * timer (`connectionsCheckingInterval`, set where the server is created); the whole-request
 * timeout is off because an upload of gigabytes may take longer than any fixed bound — the idle
 * timeout catches one that stalls instead.
 */
export function applyConnectionLimits(server: Server, limits: ConnectionLimits, log: (line: string) => void): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = 0;
  server.timeout = limits.idleTimeoutMs;
  const sockets = new PerClientCounter(limits.socketsPerClient);
  let warned = false;
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    if (!sockets.tryOpen(address)) {
      if (!warned) log(`[http] refused connections from ${address}: it already holds ${limits.socketsPerClient}`);
      warned = true;
      socket.destroy();
      return;
    }
    warned = false;
    socket.once('close', () => sockets.release(address));
  });
}
