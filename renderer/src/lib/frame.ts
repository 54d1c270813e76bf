/** One-callback-per-frame scheduling, so a burst of stream deltas costs one render. */

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
