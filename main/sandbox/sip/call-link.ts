/**
 * What the realtime socket (`/v1/realtime?call_id=…`, main/sandbox/realtime) sees of a simulated
 * SIP call: the interface between the SIP side (this folder) and the socket. The socket finds the
 * call by id for the key's team, joins it with a listener, and from then on receives:
 *
 * - the caller's audio: G.711 µ-law at 8 kHz, one 20 ms frame (160 bytes) at a time, paced in
 *   real time from the moment of joining (`atMs` = the frame's start on the call's timeline, 0 at
 *   join; frames are contiguous, silence once the script's audio is spoken);
 * - DTMF keys: the script's at their `at_ms`, and keys pressed through
 *   `POST /sandbox/calls/{call_id}/dtmf` when they are pressed (for `dtmf_event_received`);
 * - the end: once, with a reason; after it nothing more is sent and the socket closes with it.
 *
 * The socket ends the call with `refer(target)` (a `tel:+E.164` or `sip:user@host` target,
 * validated here: an invalid one is an error value and the call goes on) or `hangup()`. The REST
 * endpoints `POST /v1/realtime/calls/{call_id}/refer|hangup` call the same. `leave()` is the
 * socket going away without ending the call (its client dropped): the caller stays on the line
 * (their audio in that time is lost) and the call may be joined again within REJOIN_GRACE_MS, after
 * which it ends (`agent_left`).
 */

export const CALL_AUDIO_FORMAT = { type: 'audio/pcmu', rate: 8000, frameMs: 20, frameBytes: 160 } as const;

export type CallState = 'ringing' | 'joined' | 'ended';

export type CallEndReason =
  /** The agent hung up (socket or REST). */
  | 'hangup'
  /** The agent transferred the call (`target` says where). */
  | 'referred'
  /** The caller hung up: the script was spoken and its tail of silence passed. */
  | 'caller_hung_up'
  /** Nobody joined while it rang. */
  | 'not_answered'
  /** The agent's socket went away and nobody joined again in time. */
  | 'agent_left'
  /** The sandbox closed. */
  | 'sandbox_closed';

export interface CallEnd {
  reason: CallEndReason;
  /** One sentence for a person (and a close frame's reason, within 123 bytes). */
  message: string;
  /** The refer target, when `reason` is `referred`. */
  target?: string;
  /** On the call's timeline (0 at the first join); null when it never was joined. */
  atMs: number | null;
}

export interface CallListener {
  /** One frame of the caller's audio (CALL_AUDIO_FORMAT), starting `atMs` into the call. */
  audio(frame: Uint8Array, atMs: number): void;
  /** A key the caller pressed (0-9, *, #, A-D), `atMs` into the call. */
  dtmf(digit: string, atMs: number): void;
  /** The call ended; called once, last. */
  ended(end: CallEnd): void;
}

export type LinkResult = { ok: true } | { ok: false; message: string };

/** A joined call as its socket holds it. */
export interface JoinedCall {
  /** Transfers the call to `targetUri` and ends it (`referred`); an invalid target changes nothing. */
  refer(targetUri: string): LinkResult;
  /** Ends the call (`hangup`). */
  hangup(): LinkResult;
  /** The socket went away without ending the call (see above). */
  leave(): void;
  /**
   * The model's speech down the line to the caller (CALL_AUDIO_FORMAT bytes, any length, as the
   * socket sends them, possibly ahead of real time): the caller hears it played out in real time
   * (caller-ear.ts; `heard` in `GET /sandbox/calls/{id}`). Ignored once the socket left.
   */
  modelAudio(mulaw: Uint8Array): void;
  /** A barge-in cancelled the model's answer: the line stops playing it now; what was queued ahead is never heard. */
  modelAudioInterrupted(): void;
}

export interface CallLink {
  readonly callId: string;
  readonly team: string;
  /** E.164 numbers: who calls, and the registered number called. */
  readonly from: string;
  readonly to: string;
  readonly state: CallState;
  /** Starts (or resumes) the call's timeline for `listener`; an error value when ended or already joined. */
  join(listener: CallListener): { ok: true; call: JoinedCall } | { ok: false; message: string };
}

/** How the socket finds a call: by id, for the API key's team (another team's call is not found). */
export interface CallDirectory {
  find(callId: string, team: string): CallLink | undefined;
}
