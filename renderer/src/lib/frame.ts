/** One-callback-per-frame scheduling, so a burst of stream deltas costs one render. */

/**
 * Runs `fn` after the next frame has been rendered: a task queued from a frame callback runs once
 * the frame is laid out and painted. A read of the layout there (scrollHeight, scrollTop) is free;
 * in a frame callback it forced the layout of whatever another callback of that frame had changed
 * (the call console draws one part a frame: test/bench/realtime-event-log-chromium.ts). Without
 * frames (a test's DOM), at once.
 */
export function afterNextFrame(fn: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(fn, 0));
  else fn();
}

export interface FrameScheduler {
  /** Runs `fn` once before the next paint, however many times it is requested before then. */
  request(): void;
  /** Runs a pending callback now (end of stream, tests). */
  flush(): void;
  cancel(): void;
}

export function createFrameScheduler(fn: () => void): FrameScheduler {
  let handle: number | null = null;
  const raf = globalThis.requestAnimationFrame?.bind(globalThis) ?? ((cb: () => void) => setTimeout(cb, 16) as unknown as number);
  const caf = globalThis.cancelAnimationFrame?.bind(globalThis) ?? ((h: number) => clearTimeout(h));
  const run = (): void => {
    handle = null;
    fn();
  };
  return {
    request() {
      if (handle === null) handle = raf(run);
    },
    flush() {
      if (handle !== null) {
        caf(handle);
        run();
      }
    },
    cancel() {
      if (handle !== null) caf(handle);
      handle = null;
    },
  };
}
