/**
 * What a realtime session needs from a SIP call it joins with `?call_id=` (spec "Voice - realtime
 * and SIP", Authentication 4). The sandbox's simulated calls (main/sandbox/sip, engineer "sipsand")
 * provide it; the realtime route takes a lookup so neither side imports the other. Without a
 * lookup every `call_id` is unknown and refused before the upgrade (404).
 */

/** What the call pushes into the session joined to it. */
export interface SandboxCallPeer {
  /** The caller's audio: G.711 µ-law at 8 kHz, in order, as it is "spoken" (e.g. 20 ms frames). */
  callerAudio(mulaw: Uint8Array): void;
  /** A key the caller pressed (`0-9`, `*`, `#`, `A-D`), at this sandbox-clock time (ms). */
  dtmf(digit: string, atMs: number): void;
  /** The call is over (the caller hung up, a refer or a hangup): the session closes its socket with this reason. */
  ended(reason: string): void;
}

/** One live simulated call, as a session joining it sees it. */
export interface SandboxCallLink {
  readonly callId: string;
  /** The team owning the called number: only its API keys may join. */
  readonly team: string;
  /**
   * The session joins: the call starts its script (timed from now) and feeds `peer`. Returns what
   * the session calls back: the model's audio for the caller (µ-law 8 kHz) and leaving the call
   * (the socket closed; the call itself may go on until it ends).
   */
  join(peer: SandboxCallPeer): SandboxCallJoin;
}

export interface SandboxCallJoin {
  /** The model's speech, G.711 µ-law at 8 kHz, as it is sent. */
  modelAudio(mulaw: Uint8Array): void;
  /** The session's socket closed. */
  leave(): void;
}

/** Finds a live call by id; undefined when there is none. */
export type SandboxCallLookup = (callId: string) => SandboxCallLink | undefined;
