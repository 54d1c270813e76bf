/**
 * Server-sent events for streaming endpoints: `data: <json>\n\n` frames (plus an optional
 * `event:` line for the families that need one, wire-notes §1.1), back-pressure, token pacing,
 * client disconnects, and the stream faults (drop-after, malformed-after).
 */
import type { ServerResponse } from 'node:http';
import type { Clock } from './clock';
import type { Fault } from './faults';

export interface SseOptions {
  clock: Clock;
  /** Pause after each paced frame, in ms. */
  tokenDelayMs: number;
  /** Aborts on client disconnect or sandbox close. */
  signal: AbortSignal;
  fault?: Fault | null;
  headers?: Record<string, string>;
}

/** One SSE response. Every method is a no-op once the stream is closed. */
export class SseWriter {
  private readonly res: ServerResponse;
  private readonly opts: SseOptions;
  private frames = 0;
  private ended = false;

  constructor(res: ServerResponse, opts: SseOptions) {
    this.res = res;
    this.opts = opts;
    res.writeHead(200, {
      ...opts.headers,
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    res.flushHeaders();
  }

  /** False once the client went away, the sandbox closed, a fault dropped it, or end() ran. */
  get open(): boolean {
    return !this.ended && !this.opts.signal.aborted && !this.res.destroyed;
  }

  /** Sends one frame; `data` is JSON-encoded unless it is a string (like `[DONE]`). */
  async send(data: unknown, event?: string): Promise<void> {
    if (!this.open) return;
    const fault = this.opts.fault;
    if (fault?.dropAfter !== undefined && this.frames >= fault.dropAfter) {
      this.res.destroy();
      return;
    }
    const payload = typeof data === 'string' ? data : JSON.stringify(data);
    if (fault?.malformedAfter !== undefined && this.frames === fault.malformedAfter) {
      await this.write(`data: ${payload.slice(0, Math.max(1, Math.floor(payload.length / 2)))}\n\n`);
    }
    this.frames += 1;
    await this.write(`${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`);
  }

  /** The pause between tokens that makes a stream feel like a real model. */
  async pace(): Promise<void> {
    if (this.open) await this.opts.clock.sleep(this.opts.tokenDelayMs, this.opts.signal);
  }

  /** Ends the response (after `data: [DONE]` if the caller sent it). */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (!this.res.destroyed) this.res.end();
  }

  private write(text: string): Promise<void> {
    if (this.opts.fault?.dropAfter !== undefined) {
      // A drop must come after the frames before it reached the socket, or they could be lost with it.
      return new Promise((resolve) => {
        this.res.once('close', resolve);
        this.res.write(text, () => {
          this.res.off('close', resolve);
          resolve();
        });
      });
    }
    if (this.res.write(text)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.once('drain', done);
      this.res.once('close', done);
    });
  }
}
