import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sleep } from '../../../../main/api/sleep';

describe('api/sleep', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('resolves after the given time, not before', async () => {
    let done = false;
    const p = sleep(1000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await p;
    expect(done).toBe(true);
  });

  it('resolves at once when its signal aborts, and leaves no timer behind', async () => {
    const controller = new AbortController();
    const p = sleep(60_000, controller.signal);
    controller.abort();
    await expect(p).resolves.toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not wait at all when the signal has already aborted', async () => {
    await expect(sleep(60_000, AbortSignal.abort())).resolves.toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });
});
