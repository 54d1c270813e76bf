/**
 * Live sessions owned by main (main/live/): a live transcription, a realtime call, a SIP call.
 * A session is started by a window (`live.start`) or by main itself (an incoming call), outlives
 * every window, and ends only when stopped (`live.stop`), when it ends by itself, or when the app
 * quits. A window *attaches* (`live.attach`, a contract session): a snapshot of the session's
 * state first, then its events; its messages are the kind's control messages (validated in main
 * with the kind's own schema). Ending the attachment (cancel, close, a reload, a dropped socket)
 * only detaches: the session keeps running, and attaching again gives a fresh snapshot.
 * Media frames do not ride this session (they have their own channel).
 */
import { z } from 'zod';
import { call, event, session } from './define';
import type { WorkbenchError } from './errors';

/** `live_` + 22 URL-safe characters (made in main). */
export const LiveSessionIdSchema = z.string().regex(/^live_[A-Za-z0-9_-]{8,64}$/, 'a live session id looks like live_…');

/** A kind's id (`transcription`, `realtime`, …); the kinds themselves are registered in main. */
export const LiveKindIdSchema = z.string().regex(/^[a-z][a-z0-9-]{0,63}$/, 'a live session kind is a short lower-case name');

/** Who started the session: a window, or main itself with no window (an incoming call). */
export type LiveOrigin = 'window' | 'main';

/** The registry's own lifecycle; `state` is the kind's label within 'running' ('ringing', 'listening'). */
export type LiveStatus = 'starting' | 'running' | 'stopping' | 'ended';

/** Why a session ended: stopped on request, the app quit, it ended by itself, or it failed. */
export type LiveEndReason = 'stopped' | 'shutdown' | 'ended' | 'failed';

export interface LiveSessionSummary {
  id: string;
  kind: string;
  origin: LiveOrigin;
  status: LiveStatus;
  /** The kind's own label for where it stands, or null. */
  state: string | null;
  startedAt: number;
  endedAt: number | null;
  endReason: LiveEndReason | null;
  /** Why it failed (endReason 'failed'), or what its finaliser reported. */
  error: WorkbenchError | null;
  /** Windows attached right now. */
  attachments: number;
}

/**
 * What an attachment receives. `snapshot` comes first (and again after every re-attach): the
 * kind's state as of event `seq` (the kind decides what it holds, e.g. the transcript so far).
 * Every `event` after it has a larger `seq`, consecutive: a gap would mean a lost event. `state`
 * reports a change of the summary; `error` a control message the kind could not carry out.
 */
export type LiveAttachChunk =
  | { type: 'snapshot'; session: LiveSessionSummary; seq: number; snapshot: unknown }
  | { type: 'event'; seq: number; event: unknown }
  | { type: 'state'; session: LiveSessionSummary }
  | { type: 'error'; error: WorkbenchError };

/** LiveAttachChunk with a kind's own snapshot and event types (for the page code of that kind). */
export type LiveChunkOf<S, E> =
  | { type: 'snapshot'; session: LiveSessionSummary; seq: number; snapshot: S }
  | { type: 'event'; seq: number; event: E }
  | Extract<LiveAttachChunk, { type: 'state' | 'error' }>;

const IdInput = z.object({ id: LiveSessionIdSchema }).strict();

export const liveContract = {
  /** Sessions running now (starting, running or stopping). */
  list: call<LiveSessionSummary[]>()(z.object({}).strict().optional()),
  /** Starts a session of `kind`; `input` is checked with the kind's own schema in main. */
  start: call<{ id: string }>()(z.object({ kind: LiveKindIdSchema, input: z.unknown() }).strict()),
  /** Ends a session and waits for its finaliser (its recording kept); answers the final summary. */
  stop: call<LiveSessionSummary>()(IdInput),
  /**
   * Attaches this window. The result is the summary when the attachment ends: the session ended,
   * or the window detached (the session still running). Messages: the kind's control messages.
   */
  attach: session<LiveAttachChunk, LiveSessionSummary>()(IdInput, z.unknown(), { reattach: true }),
  /** Every start, change of status or state, and end, to every window. */
  changed: event<LiveSessionSummary>(),
};
