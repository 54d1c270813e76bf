/**
 * The event socket's send back-pressure: frames are handed to the socket in order, and while more
 * than `sendHighWaterBytes` are handed and unwritten the next waits for the socket to drain, at
 * most `drainTimeoutMs`, so memory stays bounded when the service (or the network) does not read.
 * Frames waiting behind others count against the same bound, so a caller that does not await its
 * sends cannot pile them up either. What a refused frame means is the socket's to say.
 */
import type { WebSocket } from 'ws';
import type { SocketLimits } from './socket-limits';

export class SendQueue {
  /** Bytes handed to the socket and not yet written to the network. */
  private outstanding = 0;
  /** Bytes of frames queued behind others, not yet handed to the socket. */
  private waitingBytes = 0;
  private chain: Promise<unknown> = Promise.resolve();
  private drainWaiters: Array<() => void> = [];

  constructor(
    private readonly ws: Pick<WebSocket, 'send'>,
    private readonly limits: Pick<SocketLimits, 'sendHighWaterBytes' | 'drainTimeoutMs'>,
    private readonly isOpen: () => boolean,
  ) {}

  get bufferedBytes(): number {
    return this.outstanding;
  }

  /** Whether a frame of `size` bytes would take the frames already waiting over the bound. */
  full(size: number): boolean {
    return this.waitingBytes + size > this.limits.sendHighWaterBytes && this.waitingBytes > 0;
  }

  /**
   * Runs `step` after every frame queued before it, once the socket is under the bound
   * (`drained` true) or has not drained in time or closed (`drained` false).
   */
  enqueue<R>(size: number, step: (drained: boolean) => R): Promise<R> {
    this.waitingBytes += size;
    const run = async (): Promise<R> => {
      try {
        const drained = this.outstanding > this.limits.sendHighWaterBytes ? await this.drained() : true;
        return step(drained);
      } finally {
        this.waitingBytes -= size;
      }
    };
    const result = this.chain.then(run);
    this.chain = result;
    return result;
  }

  /** Hands a frame to the socket, counted until ws has written it. */
  write(data: string | Uint8Array, binary: boolean, size: number): void {
    this.outstanding += size;
    this.ws.send(data, { binary }, () => {
      this.outstanding -= size;
      if (this.outstanding <= this.limits.sendHighWaterBytes) this.release();
    });
  }

  /** Wakes every waiting frame (the socket drained, or closed: each then checks isOpen). */
  release(): void {
    for (const w of this.drainWaiters.splice(0)) w();
  }

  /** Waits until the socket's buffer is under the bound; false after `drainTimeoutMs` or a close. */
  private drained(): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.drainWaiters = this.drainWaiters.filter((w) => w !== done);
        resolve(false);
      }, this.limits.drainTimeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        resolve(this.isOpen());
      };
      this.drainWaiters.push(done);
    });
  }
}
