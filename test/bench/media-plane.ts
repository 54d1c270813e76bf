// Benchmark: the media plane in browser mode's shape (main here, the media process a forked child,
// a page client in a process of its own), with main idle and then with main blocked 200 ms every
// second (WORKBENCH_TEST_BLOCK_MAIN_MS's hook), in the same run. Per phase: the media process's
// synthetic source sends FRAMES frames of 640 bytes every 20 ms (timer-paced against the
// monotonic clock: the paced source the issue asks for, no device), the page answers each.
// Figures:
// - sendJitterMs: |interval − 20 ms| between the media process's sends (p50/p99/max);
// - pageArrivalJitterMs: the same between arrivals at the page (what playback would see);
// - mediaToPageMs / pageToMediaMs: a frame's age on arrival, its sender's timestamp moved onto the
//   receiver's clock with the channel's NTP-style offset (p50/p95/max);
// - drops and gaps in every queue and receiver (expected 0).
//
// Run alone: npx tsx test/bench/run.ts mediaPlane
import { startBlockMainHook } from '../../main/media/block-main';
import type { SyntheticStats } from '../../main/media/synthetic-source';
import { nextEvent, runPageClient, startPlane } from '../integration/media/harness';

const FRAMES = 500; // 10 s per phase
const BLOCK_MS = 200;

const round = (n: number | null) => (n === null || !Number.isFinite(n) ? null : Math.round(n * 100) / 100);

async function phase(name: string, blockMain: boolean) {
  const { plane, events, lines } = startPlane();
  const stop = blockMain ? startBlockMainHook({ WORKBENCH_TEST_BLOCK_MAIN_MS: String(BLOCK_MS) }, (l) => lines.push(l)) : () => {};
  try {
    const channel = await plane.channel();
    if (!channel.ok || channel.value.transport !== 'websocket') throw new Error(JSON.stringify(channel));
    const mainClock = await plane.syncClock(8);
    const started = await plane.startSession(name, 'synthetic', { intervalMs: 20, frames: FRAMES, payloadBytes: 640, waitForSubscriber: true, expectInbound: FRAMES });
    if (!started.ok) throw new Error(JSON.stringify(started));
    const page = await runPageClient({ url: channel.value.url, token: channel.value.token, out: started.value.streams.out, in: started.value.streams.in, frames: FRAMES });
    // A frame lost on the way back would leave this waiting: the losses below say which.
    await Promise.race([
      nextEvent(plane, events, (e) => e.type === 'session-event' && e.sessionId === name && e.event === 'inbound-complete'),
      new Promise((resolve) => setTimeout(resolve, 5000)),
    ]);
    await plane.stopSession(name);
    const event = await nextEvent(plane, events, (e) => e.type === 'session-event' && e.sessionId === name && e.event === 'stats');
    const media = (event as { data: SyntheticStats }).data;
    const outStream = page.stats.streams[String(started.value.streams.out)];
    return {
      mainBlockedMsPerSecond: blockMain ? BLOCK_MS : 0,
      frames: FRAMES,
      sendJitterMs: { p50: round(media.sendJitterMs.p50), p99: round(media.sendJitterMs.p99), max: round(media.sendJitterMs.max) },
      pageArrivalJitterMs: { p50: round(page.arrivalJitterMs.p50), p99: round(page.arrivalJitterMs.p99), max: round(page.arrivalJitterMs.max) },
      mediaToPageMs: { samples: page.ageMs.samples, p50: round(page.ageMs.p50), p95: round(page.ageMs.p95), max: round(page.ageMs.max) },
      pageToMediaMs: { samples: media.inboundAgeMs.samples, p50: round(media.inboundAgeMs.p50), p95: round(media.inboundAgeMs.p95), max: round(media.inboundAgeMs.max) },
      pageChannelClock: page.stats.clock && { offsetMs: round(page.stats.clock.offset), rttMs: round(page.stats.clock.rtt) },
      mainToMediaClock: mainClock && { offsetMs: round(mainClock.offset), rttMs: round(mainClock.rtt) },
      losses: {
        pageReceived: outStream,
        pageSendQueue: page.stats.queue,
        mediaReceived: media.inbound,
      },
    };
  } finally {
    stop();
    await plane.dispose();
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const idle = await phase('idle', false);
  const blocked = await phase('blocked', true);
  return {
    method: `browser-mode shape: main (this process), the media process (forked child), a page client (its own Node process, renderer/src/bridge/media-channel.ts over ws); synthetic source ${FRAMES} × 20 ms frames of 640 B per phase, timer-paced in the media process; the page echoes each frame back; latencies from the channel's NTP-style clock offset (min-RTT of recent pings)`,
    idle,
    blocked,
  };
}

if (process.argv[1]?.endsWith('media-plane.ts')) {
  void run().then((r) => process.stdout.write(`${JSON.stringify(r, null, 2)}\n`));
}
