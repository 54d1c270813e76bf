/**
 * idle_timeout_ms on a clock the test drives: fires after that much quiet with no response in
 * flight, counting from the end of the model's playback, never while the user speaks or the
 * model responds, and again after each further quiet stretch.
 */
import { describe, expect, it } from 'vitest';
import { CHECK_INS, IdleTimer } from '../../../../../../main/sandbox/realtime/turns/idle';

describe('IdleTimer', () => {
  it('fires after the timeout from the session start, with the silent stretch of input audio', () => {
    const t = new IdleTimer(8000, 1_000_000, 0);
    expect(t.deadline()).toBe(1_008_000);
    expect(t.tick(1_007_999, 7999)).toBeNull();
    expect(t.tick(1_008_000, 8000)).toEqual({ type: 'timeout_triggered', audioStartMs: 0, audioEndMs: 8000, checkIn: CHECK_INS[0], count: 1 });
    // It starts counting again: the next check-in is another full timeout later, and says something else.
    expect(t.deadline()).toBe(1_016_000);
    expect(t.tick(1_015_000, 15_000)).toBeNull();
    expect(t.tick(1_016_000, 16_000)).toMatchObject({ audioStartMs: 8000, audioEndMs: 16_000, checkIn: CHECK_INS[1], count: 2 });
  });

  it('never fires while the user speaks or a response is in progress', () => {
    const t = new IdleTimer(5000, 0);
    t.speechStarted();
    expect(t.deadline()).toBeNull();
    expect(t.tick(60_000, 60_000)).toBeNull();
    t.speechStopped(61_000, 61_000);
    t.responseStarted();
    expect(t.tick(120_000, 120_000)).toBeNull();
    expect(t.deadline()).toBeNull();
    // Activity while responding does not restart the count behind the response's back.
    t.userActivity(121_000, 121_000);
    expect(t.deadline()).toBeNull();
  });

  it('counts from the end of the model playback, not from response.done', () => {
    const t = new IdleTimer(4000, 0);
    t.responseStarted();
    // Sent 3 s of audio in 1 s: it plays until 10_000.
    t.responseDone(8000, 8000, 10_000);
    expect(t.deadline()).toBe(14_000);
    expect(t.tick(13_999, 13_999)).toBeNull();
    expect(t.tick(14_000, 14_000)).toMatchObject({ audioStartMs: 10_000, audioEndMs: 14_000 });
  });

  it('restarts on user activity and is off without a timeout', () => {
    const t = new IdleTimer(3000, 0);
    t.userActivity(2500, 2500);
    expect(t.tick(3000, 3000)).toBeNull();
    expect(t.tick(5500, 5500)).toMatchObject({ audioStartMs: 2500 });
    t.configure(null);
    expect(t.deadline()).toBeNull();
    expect(t.tick(1e9, 1e9)).toBeNull();
    expect(new IdleTimer(0, 0).tick(1e9, 0)).toBeNull();
  });
});
