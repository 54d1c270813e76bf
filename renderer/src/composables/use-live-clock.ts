/**
 * A clock for what counts time on screen (a job's elapsed time, a file's expiry countdown): `now`
 * ticks every `periodMs` while `active()` holds and the page is connected to the workbench
 * process. While the link is lost it stands still (`paused`): the page no longer knows whether
 * the job it counts is still running, so a ticking clock would say something untrue. It picks up
 * the real time again when the link comes back.
 *
 *   const { now, paused } = useLiveClock(() => props.to === null);
 */
import { computed, onScopeDispose, ref, watch, type ComputedRef, type Ref } from 'vue';
import { useLinkStatus } from '../api';

export function useLiveClock(active: () => boolean = () => true, periodMs = 1000): { now: Readonly<Ref<number>>; paused: ComputedRef<boolean> } {
  const link = useLinkStatus();
  const now = ref(Date.now());
  const paused = computed(() => link.value !== 'connected');
  let timer: ReturnType<typeof setInterval> | null = null;

  function stop(): void {
    if (timer) clearInterval(timer);
    timer = null;
  }

  watch(
    [active, paused],
    ([on, isPaused]) => {
      stop();
      if (!on || isPaused) return;
      now.value = Date.now();
      timer = setInterval(() => (now.value = Date.now()), periodMs);
    },
    { immediate: true },
  );
  onScopeDispose(stop);
  return { now, paused };
}
