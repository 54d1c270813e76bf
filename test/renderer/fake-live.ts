/**
 * The `live` family of the fake workbench: sessions held in memory; an attachment gets a
 * snapshot first, then what the test emits. `drop(id)` ends every attachment of a session as a
 * dropped connection would (the page re-attaches and gets a fresh snapshot).
 */
import type { SessionHandle } from '../../shared/contract/api';
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { LiveAttachChunk, LiveSessionSummary } from '../../shared/contract/live';
import type { FamilyApi } from '../../shared/contract/api';
import type { liveContract } from '../../shared/contract/live';

export interface FakeLiveSession {
  summary: LiveSessionSummary;
  /** What `live.start` was given. */
  input?: unknown;
  snapshot: unknown;
  seq: number;
  attachments: Array<{ onChunk(chunk: LiveAttachChunk): void; end(summary: LiveSessionSummary): void; sent: unknown[] }>;
}

export interface FakeLiveControls {
  sessions: Map<string, FakeLiveSession>;
  /** Attach calls, by session id, in order. */
  attaches: string[];
  /** Emits an event to every attachment of `id` (and sets its snapshot to `snapshot` if given). */
  emit(id: string, event: unknown, snapshot?: unknown): void;
  /** Ends the session: every attachment's result resolves with the ended summary. */
  end(id: string): void;
}

export function createFakeLive(): { api: FamilyApi<typeof liveContract>; controls: FakeLiveControls } {
  const listeners = new Set<(s: LiveSessionSummary) => void>();
  const sessions = new Map<string, FakeLiveSession>();
  let n = 0;
  const announce = (s: LiveSessionSummary) => listeners.forEach((l) => l(s));
  const controls: FakeLiveControls = {
    sessions,
    attaches: [],
    emit(id, event, snapshot) {
      const s = sessions.get(id);
      if (!s) return;
      s.seq++;
      if (snapshot !== undefined) s.snapshot = snapshot;
      for (const a of s.attachments) a.onChunk({ type: 'event', seq: s.seq, event });
    },
    end(id) {
      const s = sessions.get(id);
      if (!s) return;
      sessions.delete(id);
      s.summary = { ...s.summary, status: 'ended', endReason: 'stopped', endedAt: 1 };
      for (const a of s.attachments.splice(0)) a.end(s.summary);
      announce(s.summary);
    },
  };
  const api: FamilyApi<typeof liveContract> = {
    list: async () => [...sessions.values()].map((s) => s.summary),
    start: async ({ kind, input }) => {
      const id = `live_fake${String(++n).padStart(6, '0')}`;
      const summary: LiveSessionSummary = { id, kind, origin: 'window', status: 'running', state: null, startedAt: 0, endedAt: null, endReason: null, error: null, attachments: 0 };
      sessions.set(id, { summary, input, snapshot: null, seq: 0, attachments: [] });
      announce(summary);
      return { id };
    },
    stop: async ({ id }) => {
      const s = sessions.get(id);
      if (!s) throw new WorkbenchFailure({ code: 'not_found', message: `There is no live session ${id}.` });
      controls.end(id);
      return s.summary;
    },
    attach: ({ id }, onChunk): SessionHandle<unknown, LiveSessionSummary> => {
      controls.attaches.push(id);
      const s = sessions.get(id);
      let finish!: (summary: LiveSessionSummary) => void;
      let fail!: (err: unknown) => void;
      const result = new Promise<LiveSessionSummary>((resolve, reject) => ((finish = resolve), (fail = reject)));
      const entry = { onChunk, end: (summary: LiveSessionSummary) => finish(summary), sent: [] as unknown[] };
      queueMicrotask(() => {
        if (!s) return fail(new WorkbenchFailure({ code: 'not_found', message: `There is no live session ${id}.` }));
        s.attachments.push(entry);
        onChunk({ type: 'snapshot', session: s.summary, seq: s.seq, snapshot: s.snapshot });
      });
      const detach = async () => {
        if (s) s.attachments = s.attachments.filter((a) => a !== entry);
        finish(s?.summary as LiveSessionSummary);
      };
      return {
        id: `attach${n}${controls.attaches.length}`,
        result,
        send: async (message) => void entry.sent.push(message),
        close: detach,
        cancel: detach,
      };
    },
    onChanged: (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
  };
  return { api, controls };
}
