/**
 * Keeps the page's connections apart from everyone else's. Any local program can open sockets to
 * browser mode's port without the token; if those counted against the same limit as the page's
 * (256 kept-alive sockets asking for /favicon.ico now and then, or 260 that never send a byte),
 * the page itself was refused. So a socket starts out unauthenticated: a few of them may exist at
 * once (`unauthenticated`), each must keep a request going or be closed after `idleMs` (never
 * sent one, trickles its headers, sits kept-alive, or stalls mid-answer), and when a new one
 * arrives at the cap another is closed to make room (the oldest idle one, else the one stalled
 * longest): sockets that hold a slot cannot starve one that will use it. A socket becomes authenticated when a
 * request on it proves the token (the WebSocket's subprotocol, a Bearer header, a media token);
 * from then on it is the page's, counted per address against `authenticatedPerClient` alone.
 */
import type { Socket } from 'node:net';
import { PerClientCounter } from './per-client-counter';

export interface SocketGateLimits {
  /** Sockets that have not proven the token, all addresses together. */
  unauthenticated: number;
  /** An unauthenticated socket with no request in flight, or moving no bytes, for this long is closed. */
  idleMs: number;
  /** Authenticated sockets one address may hold. */
  authenticatedPerClient: number;
}

interface Tracked {
  address: string;
  authenticated: boolean;
  /** Requests received and not yet answered (HTTP/1.1 may pipeline). */
  inFlight: number;
  /** When it last started or finished a request, or moved a byte (ms). */
  lastActive: number;
  /** bytesRead + bytesWritten at the last sweep. */
  bytesSeen: number;
}

export class SocketGate {
  /** Insertion order is age: the first unauthenticated idle one found is the oldest. */
  private readonly sockets = new Map<Socket, Tracked>();
  private unauthenticatedCount = 0;
  private readonly authenticated: PerClientCounter;
  private readonly sweeper: NodeJS.Timeout;
  private warnedBusy = false;

  constructor(
    private readonly limits: SocketGateLimits,
    private readonly log: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.authenticated = new PerClientCounter(limits.authenticatedPerClient);
    this.sweeper = setInterval(() => this.sweep(), Math.max(50, Math.min(1_000, Math.floor(limits.idleMs / 4))));
    this.sweeper.unref();
  }

  /** A new connection: admitted as unauthenticated, making room by closing another one at the cap. */
  admit(socket: Socket): void {
    if (this.unauthenticatedCount >= this.limits.unauthenticated) this.makeRoom();
    const tracked: Tracked = { address: socket.remoteAddress ?? 'unknown', authenticated: false, inFlight: 0, lastActive: this.now(), bytesSeen: 0 };
    this.sockets.set(socket, tracked);
    this.unauthenticatedCount++;
    socket.once('close', () => this.forget(socket));
  }

  /** A request (or an upgrade) arrived on `socket`. */
  requestStarted(socket: Socket): void {
    const tracked = this.sockets.get(socket);
    if (!tracked) return;
    tracked.inFlight++;
    tracked.lastActive = this.now();
  }

  /** A request on `socket` was answered (or abandoned). */
  requestEnded(socket: Socket): void {
    const tracked = this.sockets.get(socket);
    if (!tracked || tracked.inFlight === 0) return;
    tracked.inFlight--;
    tracked.lastActive = this.now();
  }

  /**
   * A request on `socket` proved the token: the socket is the page's from now on. False when its
   * address already holds `authenticatedPerClient` of them (the socket stays as it was).
   */
  authenticate(socket: Socket): boolean {
    const tracked = this.sockets.get(socket);
    if (!tracked) return !socket.destroyed;
    if (tracked.authenticated) return true;
    if (!this.authenticated.tryOpen(tracked.address)) return false;
    tracked.authenticated = true;
    this.unauthenticatedCount--;
    return true;
  }

  /** Sockets without the token that are open now (for tests and diagnostics). */
  get unauthenticatedOpen(): number {
    return this.unauthenticatedCount;
  }

  dispose(): void {
    clearInterval(this.sweeper);
  }

  private forget(socket: Socket): void {
    const tracked = this.sockets.get(socket);
    if (!tracked) return;
    this.sockets.delete(socket);
    if (tracked.authenticated) this.authenticated.release(tracked.address);
    else this.unauthenticatedCount--;
  }

  /**
   * Closes one unauthenticated socket: the oldest with no request in flight, else the one whose
   * request has moved no bytes for longest. A newcomer is always let in: sockets that hold a slot
   * (even mid-request, answers left unread) must not be able to keep the page's out.
   */
  private makeRoom(): void {
    const now = this.now();
    let stalled: [Socket, number] | null = null;
    for (const [socket, tracked] of this.sockets) {
      if (tracked.authenticated) continue;
      if (tracked.inFlight === 0) {
        this.warnedBusy = false;
        return this.close(socket);
      }
      const since = socket.bytesRead + socket.bytesWritten !== tracked.bytesSeen ? now : tracked.lastActive;
      if (!stalled || since < stalled[1]) stalled = [socket, since];
    }
    if (!stalled) return;
    if (!this.warnedBusy) this.log(`[http] ${this.limits.unauthenticated} connections without the token all had a request in flight: closed the one stalled longest`);
    this.warnedBusy = true;
    this.close(stalled[0]);
  }

  private close(socket: Socket): void {
    // Counted free at once: the close event comes later.
    this.forget(socket);
    socket.destroy();
  }

  /** Closes unauthenticated sockets that idled, or stalled mid-request, for `idleMs`. */
  private sweep(): void {
    const now = this.now();
    for (const [socket, tracked] of this.sockets) {
      if (tracked.authenticated) continue;
      const bytes = socket.bytesRead + socket.bytesWritten;
      // Bytes moving count as activity only while a request is in flight: a socket trickling its
      // headers never completes a request, so it is idle however many bytes it sends.
      if (bytes !== tracked.bytesSeen && tracked.inFlight > 0) tracked.lastActive = now;
      tracked.bytesSeen = bytes;
      if (now - tracked.lastActive >= this.limits.idleMs) this.close(socket);
    }
  }
}
