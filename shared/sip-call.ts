/**
 * An incoming SIP call as a live session (main's `sip-call` kind): started by main when a verified
 * `realtime.call.incoming` arrives, with no window needed. It rings; Answer hands the call to the
 * realtime call console (its own live session, joined with `call_id` and the API key), Decline
 * hangs it up; an answered call can be transferred (refer) or hung up. The page folds events into
 * the snapshot with `applySipCallEvent`, as main does.
 */
import { z } from 'zod';

export const SIP_CALL_KIND = 'sip-call';

/** How long a call rings here before it counts as missed (the service gives up at about 60 s). */
export const SIP_RING_MS = 60_000;

export const SipCallInputSchema = z
  .object({
    callId: z.string().min(1).max(256),
    from: z.string().max(300).nullable(),
    to: z.string().max(300).nullable(),
    /** The connection whose key answers and controls it (the number's). */
    connectionId: z.string().min(1).max(200),
    webhookId: z.string().max(300),
    /** Unix ms when the delivery arrived. */
    receivedAt: z.number(),
    /** The delivery's body as verified (kept in the call's History entry). */
    event: z.record(z.string(), z.unknown()),
  })
  .strict();
export type SipCallInput = z.input<typeof SipCallInputSchema>;

export const SipCallControlSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('answer') }).strict(),
  z.object({ type: z.literal('decline') }).strict(),
  z.object({ type: z.literal('hangup') }).strict(),
  z.object({ type: z.literal('refer'), target: z.string().trim().min(1).max(300) }).strict(),
]);
export type SipCallControl = z.input<typeof SipCallControlSchema>;

export type SipCallState = 'ringing' | 'answered' | 'declined' | 'transferred' | 'ended' | 'missed';

export interface SipCallSnapshot {
  callId: string;
  from: string | null;
  to: string | null;
  state: SipCallState;
  receivedAt: number;
  answeredAt: number | null;
  endedAt: number | null;
  /** The realtime console's live session carrying the answered call's audio. */
  mediaSessionId: string | null;
  /** Where a transferred call went. */
  transferredTo: string | null;
  /** The last thing that went wrong (an Answer the console could not take, a refused transfer). */
  problem: string | null;
  /** The keys the caller pressed on an answered call (`input_audio_buffer.dtmf_event_received`), oldest first, at most SIP_DIGITS_MAX. */
  digits: SipCallDigit[];
  /** How an ended call ended, in a sentence (the caller hung up, the console's session failed…); null while it goes on. */
  endReason: string | null;
}

/** A key the caller pressed: `at` is Unix ms (the service's `received_at`, in seconds, when it gave one). */
export interface SipCallDigit {
  digit: string;
  at: number;
}

/** A snapshot keeps the last this many keys (a caller typing a long reference number fits). */
export const SIP_DIGITS_MAX = 256;

export type SipCallEvent =
  | { type: 'answered'; at: number; mediaSessionId: string }
  | { type: 'declined'; at: number }
  | { type: 'transferred'; at: number; target: string }
  | { type: 'ended'; at: number; missed: boolean; reason?: string }
  | { type: 'dtmf'; digit: string; at: number }
  /** null: the problem is over (the answering session reconnected). */
  | { type: 'problem'; message: string | null };

/** A new call's snapshot, as it rings. */
export function ringingSipCall(input: { callId: string; from: string | null; to: string | null; receivedAt: number }): SipCallSnapshot {
  return { callId: input.callId, from: input.from, to: input.to, state: 'ringing', receivedAt: input.receivedAt, answeredAt: null, endedAt: null, mediaSessionId: null, transferredTo: null, problem: null, digits: [], endReason: null };
}

export function applySipCallEvent(state: SipCallSnapshot, event: SipCallEvent): void {
  switch (event.type) {
    case 'answered':
      state.state = 'answered';
      state.answeredAt = event.at;
      state.mediaSessionId = event.mediaSessionId;
      state.problem = null;
      return;
    case 'declined':
      state.state = 'declined';
      state.endedAt = event.at;
      state.endReason = 'Declined.';
      return;
    case 'transferred':
      state.state = 'transferred';
      state.transferredTo = event.target;
      state.endedAt = event.at;
      state.endReason = `Transferred to ${event.target}.`;
      return;
    case 'ended':
      state.state = event.missed ? 'missed' : 'ended';
      state.endedAt = event.at;
      state.endReason = event.reason ?? (event.missed ? 'Not answered.' : null);
      return;
    case 'dtmf':
      state.digits.push({ digit: event.digit, at: event.at });
      if (state.digits.length > SIP_DIGITS_MAX) state.digits.splice(0, state.digits.length - SIP_DIGITS_MAX);
      return;
    case 'problem':
      state.problem = event.message;
      return;
  }
}
