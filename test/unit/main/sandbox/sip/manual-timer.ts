/** A CallTimer moved by hand: `advance(ms)` steps time 1 ms at a time through every due timer, in order. */
import type { CallTimer } from '../../../../../main/sandbox/sip/call';

export interface ManualTimer extends CallTimer {
  advance(ms: number): void;
  /** Timers still set. */
  pending(): number;
}

export function manualTimer(start = 1000): ManualTimer {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; every: number | null; fn: () => void }>();
  const add = (ms: number, fn: () => void, every: number | null) => {
    const id = seq++;
    timers.set(id, { at: now + ms, every, fn });
    return () => void timers.delete(id);
  };
  return {
    now: () => now,
    every: (ms, fn) => add(ms, fn, ms),
    after: (ms, fn) => add(ms, fn, null),
    advance(ms) {
      const target = now + ms;
      for (;;) {
        let next: [number, { at: number; every: number | null; fn: () => void }] | null = null;
        for (const entry of timers) if (entry[1].at <= target && (!next || entry[1].at < next[1].at)) next = entry;
        if (!next) break;
        const [id, t] = next;
        now = t.at;
        if (t.every === null) timers.delete(id);
        else t.at += t.every;
        t.fn();
      }
      now = target;
    },
    pending: () => timers.size,
  };
}
