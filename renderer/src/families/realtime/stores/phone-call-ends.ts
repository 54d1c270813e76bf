/**
 * Who called whom on a SIP call the console carries: the SIP family keeps this app run's calls
 * (from a verified `realtime.call.incoming`, with its From and To); the console reads its own
 * call's ends from that list. Unknown (a call answered elsewhere, a restarted app): null.
 */
import { useWorkbench } from '../../../api';

export async function phoneCallEnds(callId: string): Promise<{ from: string | null; to: string | null } | null> {
  try {
    const call = (await useWorkbench().sip.calls(undefined)).find((c) => c.callId === callId);
    return call ? { from: call.from, to: call.to } : null;
  } catch {
    return null;
  }
}
