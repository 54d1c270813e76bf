/**
 * The one wait of main: retries (api/client.ts), job backoff (jobs/job-queue.ts) and deferred
 * polling (jobs/deferred-poller.ts) all pause through it. It lives in api/, the lowest layer of
 * main that the others may import. Cancelling ends the wait early without an error: each caller
 * checks its signal afterwards and decides what a cancel means. (The sandbox keeps its own,
 * driven by its movable clock.)
 */

/** Resolves after `ms`, or at once when `signal` aborts (never rejects). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
