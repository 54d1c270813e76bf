/**
 * A call this tab followed before a reload may be gone from main: the app was restarted (a crash
 * or a kill -9 among them), or the call ended while no window followed it. The live-sessions
 * store then ends the attachment with `not_found`; `onceGone` tells the console once, so it can
 * say so rather than show an empty form that looks as if nothing happened.
 */
import { watch } from 'vue';
import type { useLiveSessionsStore } from '../../../stores/live-sessions';

export const CALL_GONE_MESSAGE =
  'The call this tab was following is no longer running: the app was restarted, or the call ended while no window followed it. History keeps its recording, events and transcript.';

export function onceGone(live: ReturnType<typeof useLiveSessionsStore>, id: string, gone: () => void): void {
  const stop = watch(
    // The attachment's error alone: its view changes with every message of the call.
    () => live.errorOf(id),
    (error) => {
      if (!error) return;
      stop();
      if (error.code === 'not_found') gone();
    },
  );
}
