/**
 * The proof that media frames do not ride main's event loop: with main (this process) blocked
 * 200 ms every second by the WORKBENCH_TEST_BLOCK_MAIN_MS hook, the media process's synthetic
 * 20 ms source streams N frames to a page client (its own process) and the page streams N frames
 * back; every frame arrives, in order, with no drop in any queue and no gap, and the media
 * process does not restart. Counts only, as the machine is shared: how late frames are with main
 * idle and blocked (jitter, latency) is measured by test/bench/media-plane.ts in one run.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startBlockMainHook } from '../../../main/media/block-main';
import { nextEvent, runPageClient, startPlane } from './harness';
import type { SyntheticStats } from '../../../main/media/synthetic-source';

const FRAMES = 250; // 5 s of 20 ms frames: five of main's 200 ms stalls.

describe('media plane with main blocked 200 ms every second', () => {
  const { plane, events, lines } = startPlane();
  const stopBlocking = startBlockMainHook({ WORKBENCH_TEST_BLOCK_MAIN_MS: '200' }, (line) => lines.push(line));
  afterAll(async () => {
    stopBlocking();
    await plane.dispose();
  });

  it('streams every frame both ways, in order, with no drops and no gaps', async () => {
    expect(lines.some((l) => l.includes('TEST HOOK'))).toBe(true);
    const channel = await plane.channel();
    if (!channel.ok || channel.value.transport !== 'websocket') throw new Error(JSON.stringify(channel));
    const started = await plane.startSession('proof', 'synthetic', { intervalMs: 20, frames: FRAMES, payloadBytes: 640, waitForSubscriber: true, expectInbound: FRAMES });
    if (!started.ok) throw new Error(JSON.stringify(started));
    const { out, in: inbound } = started.value.streams;

    const page = await runPageClient({ url: channel.value.url, token: channel.value.token, out, in: inbound, frames: FRAMES });
    expect(page.received).toBe(FRAMES);
    expect(page.inOrder).toBe(true);
    expect(page.stats.streams[String(out)]).toMatchObject({ received: FRAMES, delivered: FRAMES, gaps: 0, missing: 0, outOfOrder: 0 });
    expect(page.stats.queue).toMatchObject({ pushed: FRAMES, taken: FRAMES, droppedFull: 0, droppedStale: 0, held: 0 });
    expect(page.stats.malformed).toBe(0);

    await nextEvent(plane, events, (e) => e.type === 'session-event' && e.sessionId === 'proof' && e.event === 'inbound-complete');
    expect(await plane.stopSession('proof')).toEqual({ ok: true, value: null });
    const reported = await nextEvent(plane, events, (e) => e.type === 'session-event' && e.sessionId === 'proof' && e.event === 'stats');
    const stats = (reported as { data: SyntheticStats }).data;
    expect(stats.sent).toBe(FRAMES);
    expect(stats.inbound).toMatchObject({ received: FRAMES, delivered: FRAMES, gaps: 0, missing: 0, outOfOrder: 0 });
    expect(stats.corrupt).toBe(0);
    expect(events.filter((e) => e.type === 'crashed')).toEqual([]);
  });
});
