/**
 * A fake console window on a realtime call: attaches, folds chunks onto the snapshot with the
 * page's own fold (applyRealtimeCallEvent), and waits for conditions on it. Plus a poll on a
 * session's state with no window attached (the registry's snapshot, as a new window would get it).
 */
import type { App } from '../../../main/app';
import type { LiveAttachChunk } from '../../../shared/contract/live';
import { applyRealtimeCallEvent, type RealtimeCallEvent, type RealtimeCallSnapshot } from '../../../shared/realtime-call';

export async function attachCall(app: App, id: string) {
  const chunks: LiveAttachChunk[] = [];
  let state: RealtimeCallSnapshot | null = null;
  let lastSeq = -1;
  let gaps = 0;
  let ended = false;
  const waiters: Array<() => void> = [];
  const attachment = await app.live.attach(id, {
    deliver(chunk) {
      chunks.push(chunk);
      if (chunk.type === 'snapshot') {
        state = structuredClone(chunk.snapshot as RealtimeCallSnapshot);
        lastSeq = chunk.seq;
      } else if (chunk.type === 'event' && state) {
        if (chunk.seq !== lastSeq + 1) gaps++;
        lastSeq = chunk.seq;
        applyRealtimeCallEvent(state, chunk.event as RealtimeCallEvent);
      }
      for (const w of waiters.splice(0)) w();
    },
    ended() {
      ended = true;
      for (const w of waiters.splice(0)) w();
    },
  });
  const until = (check: () => boolean, what = 'condition', ms = 60_000): Promise<void> =>
    new Promise((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`timed out waiting for ${what}: ${JSON.stringify({ status: state?.status, lastError: state?.lastError, transcript: state?.transcript })}`)), ms);
      const look = () => (check() ? (clearTimeout(timer), done()) : waiters.push(look));
      look();
    });
  return {
    attachment,
    state: () => state!,
    gaps: () => gaps,
    ended: () => ended,
    until,
    events: () => chunks.flatMap((c) => (c.type === 'event' ? [c.event as RealtimeCallEvent] : [])),
    errors: () => chunks.flatMap((c) => (c.type === 'error' ? [c.error] : [])),
  };
}

/** Polls the session's state through a detached attachment's snapshot (no window receives events meanwhile). */
export async function pollState(snapshot: () => LiveAttachChunk, check: (s: RealtimeCallSnapshot) => boolean, what: string, ms = 60_000): Promise<RealtimeCallSnapshot> {
  const deadline = Date.now() + ms;
  for (;;) {
    const chunk = snapshot();
    const s = (chunk as { snapshot: RealtimeCallSnapshot }).snapshot;
    if (check(s)) return s;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify({ status: s.status, lastError: s.lastError, transcript: s.transcript, pending: s.pendingToolCalls })}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
