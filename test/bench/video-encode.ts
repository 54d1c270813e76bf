/**
 * Sandbox video encoding: an 8 s 16:9 video (the default length) at 480p, 720p and 1080p, drawn
 * and encoded by the sandbox's worker (main/sandbox/video/encoder.ts: WebAssembly x264 at 12 fps),
 * timed end to end, with the event loop's worst delay meanwhile: the sandbox runs in the app's
 * main process, so that delay is what the app would feel (target: well under 50 ms). The first
 * encode includes starting the worker. `npx tsx test/bench/run.ts video-encode` or
 * `npx tsx test/bench/video-encode.ts`.
 */
import { cpus, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { VideoEncoder } from '../../main/sandbox/video/encoder';
import { generationPlan, VIDEO_FPS } from '../../main/sandbox/video/plan';
import type { VideoResolution } from '../../shared/wire/videos';

const SECONDS = 8;

async function encodeOnce(encoder: VideoEncoder, resolution: VideoResolution): Promise<Record<string, unknown>> {
  const plan = generationPlan({ prompt: `a red fox in blue snow at ${resolution}`, aspectRatio: '16:9', resolution, duration: SECONDS, background: null, tiles: [], voices: [], salt: 'bench' });
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  // A 2 ms ticker as well: the histogram's max includes its own sampling; this is the plain gap.
  let maxGapMs = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    maxGapMs = Math.max(maxGapMs, now - last - 2);
    last = now;
  }, 2);
  histogram.enable();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const mp4 = await encoder.encode({ plan, background: null, tiles: [] });
  const ms = performance.now() - started;
  const mainCpu = process.cpuUsage(cpu);
  histogram.disable();
  clearInterval(ticker);
  return {
    size: `${plan.width}x${plan.height}`,
    frames: plan.frames,
    ms: Math.round(ms),
    msPerFrame: Math.round((ms / plan.frames) * 10) / 10,
    realtimeFactor: Math.round((ms / 1000 / SECONDS) * 100) / 100,
    bytes: mp4.length,
    eventLoopDelayMaxMs: Math.round((histogram.max / 1e6) * 10) / 10,
    eventLoopDelayP99Ms: Math.round((histogram.percentile(99) / 1e6) * 10) / 10,
    tickerMaxGapMs: Math.round(maxGapMs * 10) / 10,
    /** CPU of the whole process (the worker included), as a share of the wall time. */
    processCpuShare: Math.round(((mainCpu.user + mainCpu.system) / 1000 / ms) * 100) / 100,
  };
}

export async function run(): Promise<Record<string, unknown>> {
  const encoder = new VideoEncoder();
  try {
    const results: Record<string, unknown> = {
      seconds: SECONDS,
      fps: VIDEO_FPS,
      loadAverageBefore: loadavg().map((x) => Math.round(x * 100) / 100),
      cpus: cpus().length,
    };
    // The first one starts the worker (and compiles the WebAssembly).
    results['720p (cold worker)'] = await encodeOnce(encoder, '720p');
    for (const resolution of ['480p', '720p', '1080p'] as const) results[resolution] = await encodeOnce(encoder, resolution);
    results.loadAverageAfter = loadavg().map((x) => Math.round(x * 100) / 100);
    return results;
  } finally {
    await encoder.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run().then(
    (r) => process.stdout.write(`${JSON.stringify(r, null, 2)}\n`),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
