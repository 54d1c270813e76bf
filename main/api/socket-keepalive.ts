/**
 * The event socket's keep-alive: a ping every `intervalMs`; when neither a pong nor any message
 * comes back within `timeoutMs`, the peer is taken for dead and the socket dropped. The socket
 * says when a ping may go (not while reading is paused: then a pong cannot be read, and the
 * consumer is slow, not the peer) and what a dead peer means for its close.
 */
import type { WebSocket } from 'ws';

export interface KeepAliveHooks {
  /** Whether a ping may go now (the socket is open and reading). */
  mayPing: () => boolean;
  /** A ping went (counted in the socket's stats). */
  onPing: () => void;
  /** No answer within the timeout: called just before the socket is terminated. */
  onDead: (waitedMs: number) => void;
}

export class KeepAlive {
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private deadTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly ws: Pick<WebSocket, 'ping' | 'terminate'>,
    intervalMs: number,
    private readonly timeoutMs: number,
    private readonly hooks: KeepAliveHooks,
  ) {
    if (intervalMs > 0) {
      this.pingTimer = setInterval(() => this.ping(), intervalMs);
      this.pingTimer.unref?.();
    }
  }

  /** Anything from the peer (a pong, a ping, a message) proves it alive. */
  alive(): void {
    this.disarm();
  }

  /** Stops waiting for an answer to the ping in flight (reading paused: the pong could not be read). */
  disarm(): void {
    if (this.deadTimer) clearTimeout(this.deadTimer);
    this.deadTimer = null;
  }

  /** No more pings (the socket closed). */
  stop(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
    this.disarm();
  }

  private ping(): void {
    if (!this.hooks.mayPing() || this.deadTimer) return;
    this.hooks.onPing();
    this.ws.ping();
    this.deadTimer = setTimeout(() => {
      this.deadTimer = null;
      this.hooks.onDead(this.timeoutMs);
      this.ws.terminate();
    }, this.timeoutMs);
    this.deadTimer.unref?.();
  }
}
