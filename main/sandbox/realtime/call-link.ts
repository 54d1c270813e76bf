/**
 * What a realtime session needs from a SIP call it joins with `?call_id=` (spec "Voice - realtime
 * and SIP", Authentication 4). The sandbox's simulated calls (main/sandbox/sip, engineer "sipsand")
 * provide it; the route takes a directory so neither side imports the other. These types are the
 * structural subset of sip/call-link.ts (`CallDirectory`, `CallLink`, `CallListener`,
 * `JoinedCall`) the session uses, so the SIP directory is passed as it is:
 * `startSandbox({ realtime: { calls: sipDirectory } })`. Without a directory every `call_id` is
 * unknown and refused before the upgrade (404).
 */

/** What the call pushes into the session joined to it. */
export interface SandboxCallListener {
  /** One frame of the caller's audio, G.711 µ-law at 8 kHz, `atMs` into the call. */
  audio(frame: Uint8Array, atMs: number): void;
  /** A key the caller pressed (`0-9`, `*`, `#`, `A-D`), `atMs` into the call. */
  dtmf(digit: string, atMs: number): void;
  /** The call is over (the caller hung up, a refer or a hangup): the session closes its socket with the message. */
  ended(end: { reason: string; message: string }): void;
}

export type SandboxCallResult = { ok: true } | { ok: false; message: string };

/** A joined call as the session holds it. */
export interface SandboxJoinedCall {
  refer(targetUri: string): SandboxCallResult;
  hangup(): SandboxCallResult;
  /** The session's socket closed without ending the call. */
  leave(): void;
  /** The model's speech for the caller, µ-law 8 kHz, as it is sent (optional: a call may not play it). */
  modelAudio?(mulaw: Uint8Array): void;
  /** A barge-in cancelled the answer: the caller stops hearing it now (what was sent ahead is dropped). */
  modelAudioInterrupted?(): void;
}

/** One live simulated call, as a session joining it sees it. */
export interface SandboxCallLink {
  readonly callId: string;
  /** The team owning the called number: only its API keys may join. */
  readonly team: string;
  join(listener: SandboxCallListener): { ok: true; call: SandboxJoinedCall } | { ok: false; message: string };
}

/** Finds a live call by id for the connecting key's team; undefined when there is none. */
export interface SandboxCallDirectory {
  find(callId: string, team: string): SandboxCallLink | undefined;
}
