/**
 * The running calls, streams and sessions of every host session (window or tab), by their
 * caller-made ids. Ownership is the map a lookup goes through: a window only ever finds its own
 * operations, so another window's id looks exactly like one that does not exist.
 */
import type { z } from 'zod';
import type { InboundQueue } from './inbound-queue';

export interface RunningOp {
  readonly channel: string;
  readonly controller: AbortController;
  /** Set when the window/tab went away: late chunks are dropped instead of sent into the void. */
  dropped: boolean;
  /** Sessions only: where inbound messages go, and the schema that checks them first. */
  readonly inbound?: InboundQueue<unknown>;
  messageSchema?: z.ZodType;
  /** Set by the handler (`validateMessagesWith`): checked after `messageSchema`. */
  handlerSchema?: z.ZodType;
}

export class RunningOps {
  private readonly bySession = new Map<string, Map<string, RunningOp>>();

  /** The operation `id` of `sessionId`, if that session is running it. */
  get(sessionId: string, id: string): RunningOp | undefined {
    return this.bySession.get(sessionId)?.get(id);
  }

  add(sessionId: string, id: string, op: RunningOp): void {
    let own = this.bySession.get(sessionId);
    if (!own) this.bySession.set(sessionId, (own = new Map()));
    own.set(id, op);
  }

  /** Forgets `id` if it still names `op` (a later operation may reuse a finished one's id). */
  remove(sessionId: string, id: string, op: RunningOp): void {
    const own = this.bySession.get(sessionId);
    if (own?.get(id) !== op) return;
    own.delete(id);
    if (own.size === 0) this.bySession.delete(sessionId);
  }

  /** The window/tab went away: abort all it owned and drop what they still emit. */
  abortSession(sessionId: string): void {
    for (const op of this.bySession.get(sessionId)?.values() ?? []) {
      op.dropped = true;
      op.controller.abort();
    }
  }

  abortAll(): void {
    for (const sessionId of [...this.bySession.keys()]) this.abortSession(sessionId);
  }
}
