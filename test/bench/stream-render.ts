// Benchmark: stream a synthetic markdown reply into StreamingMarkdown in Chromium and measure long
// tasks and scripting time, for 200 KB and 400 KB (to check the work grows linearly), against a
// naive baseline that re-renders the whole message with markdown-it on every chunk.
//
// Method: the page streams 4-character tokens at 100 tokens/s on a virtual clock of 16.67 ms per
// animation frame, i.e. the same text arrives per frame (6-7 characters, one or two tokens) as in a
// real 60 Hz window, but Chromium runs with its frame-rate limit off so frames come back-to-back and
// a 200 KB reply takes seconds rather than 8 minutes. Long tasks come from a PerformanceObserver in
// the page; scripting time from CDP Performance.getMetrics (ScriptDuration, TaskDuration) read
// before and after each run. The naive baseline is capped in wall time (it is quadratic) and says so.
//
// Run alone: npx tsx test/bench/stream-render.ts [baseKb]   (default 200: 200 KB and 400 KB)
import type { CDPSession, Page } from 'playwright-core';
import { startHarness } from './stream-render/harness';

interface PageRun {
  chars: number;
  frames: number;
  wallMs: number;
  capped: boolean;
  longTasks: number;
  longTaskMaxMs: number;
  /** Each long task with the characters streamed by then (-1: before the stream started). */
  longTaskAt: Array<{ durationMs: number; sent: number }>;
  /** Our work per virtual frame (callbacks, Vue flush, style, layout) as the page timed it. */
  frameWork: { p50Ms: number; p99Ms: number; maxMs: number; over16Ms: number };
  renderedChars: number;
}

interface Measured extends PageRun {
  scriptMs: number;
  taskMs: number;
}

const BASE = { tokenChars: 4, tokensPerSecond: 100, frameMs: 1000 / 60 };
const KB = 1024;

async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: list } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
  return Object.fromEntries(list.map((m) => [m.name, m.value]));
}

async function measure(page: Page, cdp: CDPSession, mode: 'incremental' | 'naive', size: number, maxWallMs: number): Promise<Measured> {
  const before = await metrics(cdp);
  const result = await page.evaluate(
    (options) => (globalThis as unknown as { __bench: { stream(o: unknown): Promise<PageRun> } }).__bench.stream(options),
    { ...BASE, mode, size, maxWallMs },
  );
  const after = await metrics(cdp);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    ...result,
    wallMs: round(result.wallMs),
    longTaskMaxMs: round(result.longTaskMaxMs),
    scriptMs: round((after.ScriptDuration - before.ScriptDuration) * 1000),
    taskMs: round((after.TaskDuration - before.TaskDuration) * 1000),
  };
}

/** Options for {@link run}; the defaults are the benchmark as specified. */
export interface StreamRenderOptions {
  /** Size of the first reply in KB; the second is twice as big. */
  baseKb?: number;
  /** Wall-time cap for the naive baseline. */
  naiveCapMs?: number;
  /** Progress lines (to stderr when run alone). */
  log?: (line: string) => void;
}

/** Runs the benchmark and returns its figures (it reports; it does not assert timings). */
export async function run(options: StreamRenderOptions = {}): Promise<Record<string, unknown>> {
  const baseKb = options.baseKb ?? 200;
  const log = options.log ?? (() => {});
  const harness = await startHarness(['--disable-frame-rate-limit', '--disable-gpu-vsync']);
  try {
    const { page } = harness;
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    await measure(page, cdp, 'incremental', 16 * KB, 60_000); // warm-up: JIT, fonts, styles
    log('warm-up done');
    const at200 = await measure(page, cdp, 'incremental', baseKb * KB, 1_800_000);
    log(`incremental ${baseKb} KB: ${JSON.stringify(at200)}`);
    const at400 = await measure(page, cdp, 'incremental', 2 * baseKb * KB, 3_600_000);
    log(`incremental ${2 * baseKb} KB: ${JSON.stringify(at400)}`);
    const naive = await measure(page, cdp, 'naive', baseKb * KB, options.naiveCapMs ?? 30_000);
    log(`naive: ${JSON.stringify(naive)}`);
    const ratio = Math.round((at400.scriptMs / at200.scriptMs) * 100) / 100;
    const maxLongTask = Math.max(at200.longTaskMaxMs, at400.longTaskMaxMs);
    return {
      method:
        '4-char tokens at 100 tokens/s on a virtual 60 Hz clock (one frame of text per animation frame, frames unthrottled); ' +
        'long tasks via PerformanceObserver, scripting via CDP Performance.getMetrics',
      sizesKb: [baseKb, 2 * baseKb],
      incremental200k: at200,
      incremental400k: at400,
      scriptRatio400over200: ratio,
      naive200k: {
        ...naive,
        note: naive.capped
          ? `capped after ${Math.round(naive.wallMs)} ms wall time at ${naive.chars} of ${baseKb * KB} characters (re-rendering the whole message per chunk is quadratic)`
          : 'ran to completion',
      },
      targets: {
        noLongTaskOver50ms: maxLongTask <= 50,
        scriptRatioAtMost2_3: ratio <= 2.3,
      },
    };
  } finally {
    await harness.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const baseKb = Number(process.argv[2] ?? 200);
  run({ baseKb, log: (line) => process.stderr.write(`${line}\n`) }).then(
    (figures) => process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
