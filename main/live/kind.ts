/**
 * A live kind: one module per kind of live session (transcription, realtime call, SIP call),
 * registered in one list (kinds.ts). The registry validates the start input and every control
 * message with the kind's schemas, so a kind only ever sees parsed values.
 */
import type { z } from 'zod';
import type { LiveOrigin } from '../../shared/contract/live';

/** What a running kind gets from the registry. */
export interface LiveContext<In, E> {
  readonly id: string;
  readonly input: In;
  readonly origin: LiveOrigin;
  /**
   * Aborted when the session starts stopping (explicit stop, app quit, or `end`): close sockets
   * and devices; `stop(reason)` is called right after and is where the recording is finalised.
   */
  readonly signal: AbortSignal;
  /** Sends an event to every attached window (numbered by the registry). */
  emit(event: E): void;
  /** The kind's own label for where it stands ('listening', 'ringing'); announced as `live.changed`. */
  setState(state: string): void;
  /**
   * The session ended by itself (the far side hung up, the service closed the socket). The
   * registry then calls `stop('ended')` (or 'failed' with `error`) once, like any other end.
   */
  end(error?: { code: 'internal' | 'network' | 'api_error' | 'protocol' | 'timeout'; message: string }): void;
  log(line: string): void;
}

/** A started session, as its kind runs it. */
export interface LiveInstance<M, S> {
  /** The state a newly attached window starts from, as of the last emitted event. */
  snapshot(): S;
  /** One control message from an attached window (already validated). A throw is reported to that window. */
  control(message: M): void | Promise<void>;
  /**
   * Called exactly once when the session ends, whatever ended it; awaited (on app quit too), so
   * this is where a recording is finalised. It must not throw for a normal end.
   */
  stop(reason: 'stopped' | 'shutdown' | 'ended' | 'failed'): void | Promise<void>;
}

export interface LiveKind<I extends z.ZodType = z.ZodType, M extends z.ZodType = z.ZodType, S = unknown, E = unknown> {
  /** The name windows start it by (`live.start {kind}`). */
  readonly id: string;
  readonly input: I;
  readonly control: M;
  /** Starts the session; a throw (or rejection) means it never started and `live.start` fails with it. */
  start(ctx: LiveContext<z.output<I>, E>): LiveInstance<z.output<M>, S> | Promise<LiveInstance<z.output<M>, S>>;
}

/** Declares a kind with its types inferred from the schemas. */
export function defineLiveKind<I extends z.ZodType, M extends z.ZodType, S, E>(kind: LiveKind<I, M, S, E>): LiveKind<I, M, S, E> {
  return kind;
}

/**
 * A bounded replay of recent events for a kind's snapshot (e.g. the transcript so far): keeps the
 * last `limit` items and counts what it dropped, so a snapshot can say it is partial.
 */
export class Replay<T> {
  private readonly items: T[] = [];
  dropped = 0;
  constructor(private readonly limit: number) {}
  push(item: T): void {
    this.items.push(item);
    if (this.items.length > this.limit) {
      this.items.shift();
      this.dropped++;
    }
  }
  list(): T[] {
    return [...this.items];
  }
}
