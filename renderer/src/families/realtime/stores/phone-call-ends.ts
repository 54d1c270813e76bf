/**
 * The SIP calls the console follows: the SIP family keeps this app run's calls (from a verified
 * `realtime.call.incoming`, with its From and To, its state and how it ended). A call answered
 * anywhere (the banner, the SIP panel) is shown by an idle console (its realtime session attached);
 * the console reads its own call from that list and follows its changes (`sip.callChanged`), so
 * it shows as answered, then ended with the reason. Unknown (a restarted app): nothing.
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

/**
 * Calls `show` with the realtime session of each SIP call answered (from the banner, the SIP
 * panel or another window: those answered already, then each as it is answered) while `idle`
 * says the console may take it; each call once, so one the user closed is not brought back by
 * its next change.
 */
export function watchAnsweredCalls(idle: () => boolean, show: (mediaSessionId: string) => void): () => void {
  const api = useWorkbench();
  const shown = new Set<string>();
  const take = (call: SipCall) => {
    if (call.state !== 'answered' || !call.mediaSessionId || shown.has(call.mediaSessionId) || !idle()) return;
    shown.add(call.mediaSessionId);
    show(call.mediaSessionId);
  };
  const off = api.sip.onCallChanged(take);
  api.sip.calls(undefined).then((list) => list.forEach(take), () => undefined);
  return off;
}
