/**
 * The page's live sessions (main/live/): which are running (`live.list`, kept current by
 * `live.changed`) and the ones this page is attached to, each with its latest snapshot and the
 * events since. Sessions live in main, so a reload loses only the attachment: the ids this tab
 * attached to are kept in sessionStorage and `restore()` (called at start-up) attaches again, each
 * getting a fresh snapshot. A dropped browser-mode socket needs nothing here: the transport
 * re-attaches by itself and the fresh snapshot simply arrives as the next chunk.
 */
import { defineStore } from 'pinia';
import { computed, shallowRef, triggerRef } from 'vue';
import type { SessionHandle } from '@shared/contract/api';
import type { WorkbenchError } from '@shared/contract/errors';
import type { LiveAttachChunk, LiveSessionSummary } from '@shared/contract/live';
import { useWorkbench } from '../api';
import { useWorkbenchEvent } from '../composables/use-workbench-event';
import { toWorkbenchError } from '../lib/errors';

/** sessionStorage key of the ids this tab is attached to (a reload re-attaches them). */
export const ATTACHED_KEY = 'workbench.live.attached';
/** Events kept per attached session since its last snapshot (the kind's snapshot holds the rest). */
export const MAX_EVENTS = 1000;

export interface LiveView {
  readonly id: string;
  /** The session as last reported (null until the first snapshot). */
  summary: LiveSessionSummary | null;
  /** The kind's snapshot, as of event `snapshotSeq`. */
  snapshot: unknown;
  snapshotSeq: number;
  /** Events after the snapshot, oldest first (at most MAX_EVENTS; `dropped` counts the rest). */
  events: unknown[];
  dropped: number;
  /** Number of the last event seen. */
  seq: number;
  /** Snapshots received: more than one means the attachment was re-made (a dropped socket). */
  snapshots: number;
  /** Events missing between two seen (should stay 0: each re-attach starts from a snapshot). */
  gaps: number;
  attached: boolean;
  /** Why the attachment failed, or the last control message the session refused. */
  error: WorkbenchError | null;
}

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

function readAttached(): string[] {
  try {
    const parsed: unknown = JSON.parse(storage()?.getItem(ATTACHED_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

function writeAttached(ids: string[]): void {
  try {
    if (ids.length === 0) storage()?.removeItem(ATTACHED_KEY);
    else storage()?.setItem(ATTACHED_KEY, JSON.stringify(ids));
  } catch {
    // No storage (a locked-down browser): the attachment just won't survive a reload.
  }
}

/** Applies one chunk to a view. */
export function applyChunk(view: LiveView, chunk: LiveAttachChunk): void {
  if (chunk.type === 'snapshot') {
    view.summary = chunk.session;
    view.snapshot = chunk.snapshot;
    view.snapshotSeq = chunk.seq;
    view.seq = chunk.seq;
    view.events = [];
    view.dropped = 0;
    view.snapshots++;
  } else if (chunk.type === 'event') {
    if (chunk.seq <= view.seq) return;
    if (chunk.seq !== view.seq + 1) view.gaps += chunk.seq - view.seq - 1;
    view.seq = chunk.seq;
    view.events.push(chunk.event);
    if (view.events.length > MAX_EVENTS) {
      view.events.shift();
      view.dropped++;
    }
  } else if (chunk.type === 'state') {
    view.summary = chunk.session;
  } else {
    view.error = chunk.error;
  }
}

export const useLiveSessionsStore = defineStore('live-sessions', () => {
  /** Sessions running in main (every window's). */
  const running = shallowRef<LiveSessionSummary[]>([]);
  /** This page's attachments, by session id. */
  const views = shallowRef(new Map<string, LiveView>());
  const handles = new Map<string, SessionHandle<unknown, LiveSessionSummary>>();
  const listeners = new Map<string, Set<(chunk: LiveAttachChunk) => void>>();

  /**
   * Each attachment's error, apart from its view: `views` is triggered by every chunk, and a watcher
   * of one view's error (stores/call-gone.ts) re-ran for each message of a busy call. This changes
   * only when an error does.
   */
  const errors = shallowRef(new Map<string, WorkbenchError>());
  function setError(id: string, error: WorkbenchError | null): void {
    if ((errors.value.get(id) ?? null) === error) return;
    if (error) errors.value.set(id, error);
    else errors.value.delete(id);
    triggerRef(errors);
  }
  /** The error that ended (or is reported on) this page's attachment to `id`, or null. */
  function errorOf(id: string): WorkbenchError | null {
    return errors.value.get(id) ?? null;
  }

  const attachedIds = computed(() => [...views.value.values()].filter((v) => v.attached).map((v) => v.id));

  function upsertRunning(summary: LiveSessionSummary): void {
    const rest = running.value.filter((s) => s.id !== summary.id);
    running.value = summary.status === 'ended' ? rest : [...rest, summary];
  }
  useWorkbenchEvent('live', 'changed', upsertRunning);

  async function load(): Promise<void> {
    running.value = await useWorkbench().live.list();
  }

  function remember(id: string, keep: boolean): void {
    const ids = readAttached().filter((x) => x !== id);
    writeAttached(keep ? [...ids, id] : ids);
  }

  /**
   * Attaches this page to session `id` (kept across a reload). `onChunk` also gets every raw
   * chunk (a view that renders events as they come). Attaching again to an attached id only adds
   * the listener.
   */
  function attach(id: string, onChunk?: (chunk: LiveAttachChunk) => void): LiveView {
    if (onChunk) {
      let set = listeners.get(id);
      if (!set) listeners.set(id, (set = new Set()));
      set.add(onChunk);
    }
    const held = views.value.get(id);
    if (held?.attached) return held;
    const view: LiveView = held ?? { id, summary: null, snapshot: null, snapshotSeq: 0, events: [], dropped: 0, seq: 0, snapshots: 0, gaps: 0, attached: true, error: null };
    view.attached = true;
    view.error = null;
    setError(id, null);
    views.value.set(id, view);
    triggerRef(views);
    remember(id, true);
    const handle = useWorkbench().live.attach({ id }, (chunk) => {
      applyChunk(view, chunk);
      if (chunk.type === 'error') setError(id, view.error);
      triggerRef(views);
      for (const listener of [...(listeners.get(id) ?? [])]) listener(chunk);
    });
    handles.set(id, handle);
    handle.result.then(
      (summary) => {
        if (handles.get(id) !== handle) return;
        view.summary = summary;
        finish(id, view, summary.status === 'ended');
      },
      (err: unknown) => {
        if (handles.get(id) !== handle) return;
        view.error = toWorkbenchError(err);
        setError(id, view.error);
        // Gone from main: nothing to re-attach to after a reload.
        finish(id, view, view.error.code === 'not_found');
      },
    );
    return view;
  }

  function finish(id: string, view: LiveView, forget: boolean): void {
    handles.delete(id);
    view.attached = false;
    if (forget) remember(id, false);
    triggerRef(views);
  }

  /** Detaches this page; the session keeps running in main. */
  async function detach(id: string): Promise<void> {
    const handle = handles.get(id);
    handles.delete(id);
    listeners.delete(id);
    remember(id, false);
    const view = views.value.get(id);
    if (view) {
      view.attached = false;
      triggerRef(views);
    }
    await handle?.cancel().catch(() => {});
  }

  /** Starts a session of `kind` and attaches to it. */
  async function start(kind: string, input: unknown, onChunk?: (chunk: LiveAttachChunk) => void): Promise<LiveView> {
    const { id } = await useWorkbench().live.start({ kind, input });
    return attach(id, onChunk);
  }

  /** Ends a session (for every window) and waits for its recording to be kept. */
  async function stop(id: string): Promise<LiveSessionSummary> {
    return useWorkbench().live.stop({ id });
  }

  /** One control message to an attached session; rejects with the reason it was refused. */
  async function send(id: string, message: unknown): Promise<void> {
    const handle = handles.get(id);
    if (!handle) throw new Error(`Not attached to live session ${id}.`);
    await handle.send(message);
  }

  /** After a reload: attaches again to every session this tab was attached to. */
  function restore(): LiveView[] {
    return readAttached().map((id) => attach(id));
  }

  return { running, views, errorOf, attachedIds, load, attach, detach, start, stop, send, restore };
});
