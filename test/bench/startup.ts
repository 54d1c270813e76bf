// Benchmark: start-up as a user meets it in browser mode. For each of three runs: start the app
// (`scripts/start.mjs --browser`, a fresh data folder), note when main prints its URL, then open
// that URL in a fresh Chromium (cold cache) and note, relative to the navigation's start:
// - DOMContentLoaded, and
// - interactive: the Chat view's prompt box is in the page and enabled with the bridge connected
//   (polled every animation frame), i.e. the user can type and send;
// plus the JavaScript and CSS the page asked for before it was interactive (bytes on the wire and
// decoded; what it preloads when idle afterwards is not counted) and the encoding the server used. Figures are medians of the three runs, with each run listed.
//
// Run alone: npx tsx test/bench/run.ts startup
import { performance } from 'node:perf_hooks';
import { launchBrowser, removeDir, startApp } from '../e2e/harness';

interface StartupRun {
  mainUrlMs: number;
  domContentLoadedMs: number;
  interactiveMs: number;
  jsTransferBytes: number;
  jsDecodedBytes: number;
  cssTransferBytes: number;
  jsFiles: number;
  encodings: string[];
}

const RUNS = 3;

/** The little of the page's DOM the probe reads (this file is checked without the DOM library). */
interface PageDocument {
  querySelector(selector: string): { disabled?: boolean } | null;
}
interface PageTiming {
  name: string;
  transferSize: number;
  decodedBodySize: number;
  domContentLoadedEventEnd: number;
  startTime: number;
}
interface PagePerformance {
  getEntriesByType(type: string): PageTiming[];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function once(): Promise<StartupRun> {
  const started = performance.now();
  const app = await startApp({});
  const mainUrlMs = performance.now() - started;
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const encodings = new Set<string>();
    page.on('response', (response) => {
      if (/\.(js|css)$/.test(new URL(response.url()).pathname)) encodings.add(response.headers()['content-encoding'] ?? 'identity');
    });
    await page.goto(app.url, { waitUntil: 'commit' });
    // Page code without named helpers (tsx's keepNames would reference a __name the page lacks)
    // and with its own minimal types (this file is checked without the DOM library).
    // BridgeStatus shows a message while the WebSocket is connecting or down.
    const interactiveMs = await page.waitForFunction(
      () => {
        const doc = (globalThis as unknown as { document: PageDocument }).document;
        const box = doc.querySelector('.view textarea');
        const connected = doc.querySelector('.bridge-status') !== null && doc.querySelector('.bridge-status .p-message') === null;
        return box && !box.disabled && connected ? performance.now() : false;
      },
      undefined,
      { polling: 'raf', timeout: 60_000 },
    );
    const interactiveAt = (await interactiveMs.jsonValue()) as number;
    // Only what was requested before the page was interactive: the idle-time preloads come later.
    const timing = await page.evaluate((before) => {
      const perf = performance as unknown as PagePerformance;
      const nav = perf.getEntriesByType('navigation')[0]!;
      const resources = perf.getEntriesByType('resource').filter((r) => r.startTime <= before);
      const js = resources.filter((r) => r.name.endsWith('.js'));
      const css = resources.filter((r) => r.name.endsWith('.css'));
      return {
        domContentLoadedMs: nav.domContentLoadedEventEnd,
        jsTransferBytes: js.reduce((n, r) => n + r.transferSize, 0),
        jsDecodedBytes: js.reduce((n, r) => n + r.decodedBodySize, 0),
        cssTransferBytes: css.reduce((n, r) => n + r.transferSize, 0),
        jsFiles: js.length,
      };
    }, interactiveAt);
    return { mainUrlMs: Math.round(mainUrlMs), interactiveMs: Math.round(interactiveAt), ...timing, domContentLoadedMs: Math.round(timing.domContentLoadedMs), encodings: [...encodings] };
  } finally {
    await browser.close();
    await app.stop();
    removeDir(app.dataDir);
  }
}

/** Runs the benchmark and returns its figures (it reports; it does not assert timings). */
export async function run(): Promise<Record<string, unknown>> {
  const runs: StartupRun[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once());
  const pick = (key: keyof StartupRun) => median(runs.map((r) => r[key] as number));
  return {
    method: 'browser mode, fresh data folder and cold Chromium cache per run; interactive = Chat prompt box present and enabled (polled per animation frame); medians of 3 runs',
    median: {
      mainUrlMs: pick('mainUrlMs'),
      domContentLoadedMs: pick('domContentLoadedMs'),
      interactiveMs: pick('interactiveMs'),
      jsTransferBytes: pick('jsTransferBytes'),
      jsDecodedBytes: pick('jsDecodedBytes'),
      cssTransferBytes: pick('cssTransferBytes'),
    },
    runs,
  };
}
