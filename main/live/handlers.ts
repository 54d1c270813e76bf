/**
 * The `live` family's handlers over a registry. `live.attach` is a window's attachment: the
 * snapshot and events of the session flow out as chunks, the window's messages go to the kind as
 * control messages (checked with the kind's schema before `send()` answers). The attachment ends
 * when the session ends (result: its final summary) or when the window detaches — cancel, close,
 * a reload, a dropped socket — and then only the attachment ends: the session keeps running.
 */
import type { LiveAttachChunk, LiveSessionSummary, liveContract } from '../../shared/contract/live';
import { WorkbenchFailure, type WorkbenchError } from '../../shared/contract/errors';
import type { FamilyHandlers, SessionContext } from '../host/handlers';
import type { LiveRegistry } from './registry';

/**
 * Chunks an attachment may leave waiting on a transport above its high-water mark (browser mode:
 * the socket holds more than SOCKET_HIGH_WATER_BYTES). Beyond this the window has fallen behind:
 * its events are skipped, and once the transport has drained it gets a fresh snapshot instead,
 * so a window that stops reading never makes main hold a session's whole output. A burst to a
 * window that keeps up never counts (its socket stays below the mark).
 */
export const ATTACHMENT_MAX_BACKLOG = 64;

/** Sends chunks to one window without ever waiting for it; skips events (then resyncs) when it lags. */
function pacedSender(ctx: SessionContext<unknown, LiveAttachChunk>, snapshot: () => LiveAttachChunk) {
  let behind = false;
  const send = (chunk: LiveAttachChunk): void => {
    void ctx.emit(chunk).then(() => {
      if (!behind || ctx.backlog() > 0 || ctx.signal.aborted) return;
      behind = false;
      let fresh: LiveAttachChunk;
      try {
        fresh = snapshot();
      } catch {
        return; // the session is ending: its end reaches the window anyway
      }
      send(fresh);
    });
  };
  return (chunk: LiveAttachChunk): void => {
    // Events and state both live in the snapshot that follows; an error is the window's own answer.
    if (chunk.type === 'error') return send(chunk);
    if (behind) return;
    if (ctx.backlog() >= ATTACHMENT_MAX_BACKLOG) {
      behind = true;
      return;
    }
    send(chunk);
  };
}

function controlError(err: unknown): WorkbenchError {
  if (err instanceof WorkbenchFailure) return err.error;
  return { code: 'internal', message: 'The live session could not carry out that control message. The details are in the workbench\'s log.' };
}

async function attachWindow(
  registry: LiveRegistry,
  id: string,
  ctx: SessionContext<unknown, LiveAttachChunk>,
  log: (line: string) => void,
): Promise<LiveSessionSummary> {
  const kind = registry.kindOf(id);
  if (!kind) throw new WorkbenchFailure({ code: 'not_found', message: `There is no live session ${id}: it has ended, or never existed.` });
  ctx.validateMessagesWith(kind.control);
  let endedWith: (summary: LiveSessionSummary) => void = () => {};
  const ended = new Promise<LiveSessionSummary>((resolve) => (endedWith = resolve));
  // Chunks are never awaited: a slow window must not hold up the session (frames have their own channel).
  let deliver: (chunk: LiveAttachChunk) => void = (chunk) => void ctx.emit(chunk);
  const attaching = registry.attach(id, { deliver: (chunk) => !ctx.signal.aborted && deliver(chunk), ended: (summary) => endedWith(summary) });
  // A session still starting keeps `attach` waiting: a window that leaves meanwhile is not held.
  const aborted = new Promise<null>((resolve) => ctx.signal.addEventListener('abort', () => resolve(null), { once: true }));
  const attachment = await Promise.race([attaching, aborted]);
  if (!attachment) {
    void attaching.then((late) => late.detach(), () => {});
    throw new WorkbenchFailure({ code: 'cancelled', message: `Stopped attaching to live session ${id}; it keeps running.` });
  }
  deliver = pacedSender(ctx, () => attachment.snapshot());
  const reading = (async () => {
    for await (const message of ctx.messages) {
      try {
        await attachment.control(message);
      } catch (err) {
        if (!(err instanceof WorkbenchFailure)) log(`[live] ${id}: control failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        deliver({ type: 'error', error: controlError(err) });
      }
    }
  })();
  // Detached: the page cancelled or closed its side, or went away (the host aborts and ends `messages`).
  const detached = new Promise<null>((resolve) => {
    if (ctx.signal.aborted) resolve(null);
    ctx.signal.addEventListener('abort', () => resolve(null), { once: true });
    void reading.then(() => resolve(null));
  });
  const outcome = await Promise.race([ended, detached]);
  attachment.detach();
  return outcome ?? registry.summary(id) ?? (await ended);
}

export function createLiveHandlers(registry: LiveRegistry, log: (line: string) => void = () => {}): FamilyHandlers<typeof liveContract> {
  return {
    list: () => registry.list(),
    start: async ({ kind, input }) => ({ id: await registry.start(kind, input, { origin: 'window' }) }),
    stop: ({ id }) => registry.stop(id),
    attach: ({ id }, ctx) => attachWindow(registry, id, ctx, log),
  };
}
