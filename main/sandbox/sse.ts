/**
 * Server-sent events for streaming endpoints: `data: <json>\n\n` frames (plus an optional
 * `event:` line for the families that need one, wire-notes §1.1), back-pressure, token pacing,
 * client disconnects, and the stream faults (drop-after, malformed-after, error-after).
 */
import type { ServerResponse } from 'node:http';
import type { OpenAiErrorBody } from '../../shared/wire/errors';
import type { Clock } from './clock';
import { errorAfterMessage, type Fault } from './faults';

/** One frame of a mid-stream error. */
export interface ErrorFrame {
  data: unknown;
  event?: string;
}

/**
 * How an endpoint family writes a service error inside a stream (wire-notes §1.2-1.4);
 * `sent` is how many frames went before it (the Responses `sequence_number`).
 */
export type StreamErrorForm = (message: string, sent: number) => ErrorFrame[];

/** Chat and legacy completions: an OpenAI-style `{"error": {...}}` frame with no event line. */
export const openAiStreamError: StreamErrorForm = (message) => {
  const body: OpenAiErrorBody = { error: { message, type: 'service_unavailable', code: 'overloaded', param: null } };
  return [{ data: body }];
};

export interface SseOptions {
  clock: Clock;
  /** Pause after each paced frame, in ms. */
  tokenDelayMs: number;
  /** Aborts on client disconnect or sandbox close. */
  signal: AbortSignal;
  fault?: Fault | null;
  headers?: Record<string, string>;
  /** The family's mid-stream error, for the error-after fault; OpenAI-style when not given. */
  errorForm?: StreamErrorForm;
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
    if (fault?.errorAfter !== undefined && this.frames >= fault.errorAfter) {
      await this.fail(errorAfterMessage(fault.errorAfter));
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

  /** Sends the family's error frames and ends the response cleanly, without `[DONE]`. */
  private async fail(message: string): Promise<void> {
    const form = this.opts.errorForm ?? openAiStreamError;
    for (const frame of form(message, this.frames)) {
      if (!this.open) return;
      this.frames += 1;
      const payload = typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data);
      await this.write(`${frame.event ? `event: ${frame.event}\n` : ''}data: ${payload}\n\n`);
    }
    this.end();
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
