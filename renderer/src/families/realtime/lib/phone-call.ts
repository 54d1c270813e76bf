/**
 * A SIP call in the console (a call joined with `callId`): the caller's keypad digits from the
 * service's `input_audio_buffer.dtmf_event_received` messages, and the header's words for who
 * called whom. Pure.
 */
import type { SipCall } from '@shared/families/sip/contract';
import type { LogMessage } from './event-log';

export const DTMF_EVENT = 'input_audio_buffer.dtmf_event_received';

/** One key the caller pressed, at the call's time `t` (ms). */
export interface DtmfKey {
  t: number;
  digit: string;
}

/** The key a message from the service says was pressed, or null for any other message. */
export function dtmfOf(message: LogMessage): DtmfKey | null {
  if (message.direction !== 'in') return null;
  const m = message.message as { type?: unknown; event?: unknown } | null;
  if (!m || typeof m !== 'object' || m.type !== DTMF_EVENT || typeof m.event !== 'string' || !m.event) return null;
  return { t: message.t, digit: m.event };
}

/** The keys among `messages`, in order. */
export function dtmfKeys(messages: readonly LogMessage[]): DtmfKey[] {
  const out: DtmfKey[] = [];
  for (const m of messages) {
    const key = dtmfOf(m);
    if (key) out.push(key);
  }
  return out;
}

/** `Phone call from +1555… to +1666…`, with what is known of either end. */
export function phoneCallTitle(ends: { from: string | null; to: string | null } | null): string {
  const parts = ['Phone call'];
  if (ends?.from) parts.push(`from ${ends.from}`);
  if (ends?.to) parts.push(`to ${ends.to}`);
  return parts.join(' ');
}

/** The SIP call's state in words for the console's header: ringing, answered, or how it ended. */
export function phoneCallStatus(call: Pick<SipCall, 'state' | 'endReason' | 'problem'>): string {
  switch (call.state) {
    case 'ringing':
      return 'Ringing';
    case 'answered':
      return call.problem ? `Answered · ${call.problem}` : 'Answered';
    case 'declined':
      return 'Declined';
    case 'missed':
      return 'Missed';
    case 'transferred':
      return call.endReason ?? 'Transferred';
    default:
      return call.endReason ? `Ended · ${call.endReason}` : 'Ended';
  }
}
