/**
 * Time for the sandbox: a wall clock that tests can replace (`now`) and move forward
 * (`advance`, which the control API's `POST /sandbox/clock/advance` calls), and a sleep that can be
 * cancelled so streams stop pacing the moment their client goes away.
 */

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Unix seconds, as the wire's `created` fields use. */
  seconds(): number;
  /** Moves the clock forward by `ms` (expiry of files and stored responses, deferred delays). */
  advance(ms: number): void;
  /** How far advance() has moved the clock in total (what a state folder keeps across launches). */
  offsetMs(): number;
  /** Called after every advance() (the state folder saves the offset). */
  onChange?: () => void;
  /** Resolves after `ms`, or at once (without throwing) when `signal` aborts; 0 yields a turn. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** A clock over `base` (default Date.now) plus what advance() added; sleeping always uses real timers. */
export function createClock(base: () => number = Date.now): Clock {
  let offsetMs = 0;
  const now = (): number => base() + offsetMs;
  const clock: Clock = {
    now,
    seconds: () => Math.floor(now() / 1000),
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`the sandbox clock only moves forward (got ${ms} ms)`);
      offsetMs += ms;
      clock.onChange?.();
    },
    offsetMs: () => offsetMs,
    sleep(ms, signal) {
      if (signal?.aborted) return Promise.resolve();
      return new Promise((resolve) => {
        const done = (): void => {
          if (ms > 0) clearTimeout(timer as NodeJS.Timeout);
          else clearImmediate(timer as NodeJS.Immediate);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer: NodeJS.Timeout | NodeJS.Immediate = ms > 0 ? setTimeout(done, ms) : setImmediate(done);
        signal?.addEventListener('abort', done, { once: true });
      });
    },
  };
  return clock;
}
