/**
 * The SIP call a console carries: the SIP family keeps this app run's calls (from a verified
 * `realtime.call.incoming`, with its From and To, its state and how it ended); the console reads
 * its own call from that list and follows its changes (`sip.callChanged`), so a call answered
 * from the banner shows here as answered, then ended with the reason. Unknown (a call answered
 * elsewhere, a restarted app): nothing.
 */
import type { SipCall } from '@shared/families/sip/contract';
import { useWorkbench } from '../../../api';

/** Calls `seen` with the call as listed now, then with each change of it; answers how to stop. */
export function followPhoneCall(callId: string, seen: (call: SipCall) => void): () => void {
  const api = useWorkbench();
  let changed = false;
  const off = api.sip.onCallChanged((call) => {
    if (call.callId !== callId) return;
    changed = true;
    seen(call);
  });
  api.sip.calls(undefined).then(
    // A change that came first is newer than the list.
    (list) => {
      const call = list.find((c) => c.callId === callId);
      if (call && !changed) seen(call);
    },
    () => undefined,
  );
  return off;
}
