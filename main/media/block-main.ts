/**
 * TEST HOOK, off by default: with `WORKBENCH_TEST_BLOCK_MAIN_MS=<n>` in the environment, main
 * busy-waits n ms every second (n from 1 to 900), standing in for a slow synchronous SQLite
 * transaction or brotli call. It proves (test/integration/media/blocked-main.test.ts) and
 * measures (test/bench/media-plane.ts) that media frames do not wait for main's event loop.
 * Both shells call it at start-up; unset, it does nothing and costs nothing.
 */
export const BLOCK_MAIN_ENV = 'WORKBENCH_TEST_BLOCK_MAIN_MS';

/** Starts the hook when `env` asks for it; returns its disposer (a no-op when off). */
export function startBlockMainHook(env: Record<string, string | undefined>, log: (line: string) => void): () => void {
  const raw = env[BLOCK_MAIN_ENV];
  if (raw === undefined || raw === '') return () => {};
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 1 || ms > 900) {
    log(`${BLOCK_MAIN_ENV}=${raw} ignored: it must be a whole number of ms from 1 to 900`);
    return () => {};
  }
  log(`TEST HOOK: ${BLOCK_MAIN_ENV}=${ms}: main blocks its event loop for ${ms} ms every second`);
  const timer = setInterval(() => {
    const until = performance.now() + ms;
    while (performance.now() < until) {
      // Busy-wait on purpose: nothing else may run on main's thread meanwhile.
    }
  }, 1000);
  timer.unref();
  return () => clearInterval(timer);
}
