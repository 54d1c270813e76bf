/**
 * Session timeline benchmark (issue 16: "an event log of 50,000 events rendered with no long
 * task over 50 ms"): a live session recorded into a fresh data folder (test/e2e/seed-session.ts:
 * ~3 s of speech as 20 ms audio frames both ways, plus 50,000 more events), then the app in
 * browser mode and Chromium opening its History entry:
 * - openToRowsMs: from setting the entry's route until the timeline shows its first rows.
 * - scroll: the timeline scrolled top to bottom in steps of 40 rows per animation frame (a fast
 *   wheel; every step needs rows of a page not read yet now and then), with a PerformanceObserver
 *   on `longtask`: the longest, how many, rows in the DOM, and the pages read.
 * - end: the End key on the list (the last page read, its JSON shown).
 * It reports; it does not assert. Run alone: npx tsx test/bench/run.ts session-timeline.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, removeDir, ROOT, startApp } from '../e2e/harness';

const EXTRA_EVENTS = 50_000;
const ROW_PX = 26;
const ROWS_PER_STEP = 40;

interface PageEl {
  scrollTop: number;
  clientHeight: number;
  scrollHeight: number;
  focus(): void;
  dispatchEvent(event: unknown): boolean;
}
interface PageGlobals {
  document: { querySelector(selector: string): PageEl | null; querySelectorAll(selector: string): ArrayLike<unknown> };
  location: { hash: string };
  requestAnimationFrame(callback: (time: number) => void): number;
  PerformanceObserver: new (callback: (list: { getEntries(): { duration: number }[] }) => void) => { observe(options: { type: string }): void };
  KeyboardEvent: new (type: string, init: Record<string, unknown>) => unknown;
  __longTasks: number[];
}

export async function run(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-timeline-'));
  const t0 = performance.now();
  const out = execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'test/e2e/seed-session.ts'), dataDir, String(EXTRA_EVENTS)], { cwd: ROOT, encoding: 'utf8' });
  const seedMs = Math.round(performance.now() - t0);
  const runId = /^seeded (\S+)/m.exec(out)![1]!;
  const app = await startApp({ dataDir });
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const pages: number[] = [];
    page.on('websocket', (ws) => ws.on('framesent', (f) => typeof f.payload === 'string' && f.payload.includes('"history.timeline"') && pages.push(1)));
    await page.goto(app.url);
    await page.waitForSelector('.view textarea', { timeout: 60_000 });
    await page.evaluate(() => {
      const g = globalThis as unknown as PageGlobals;
      g.__longTasks = [];
      new g.PerformanceObserver((list) => list.getEntries().forEach((e) => g.__longTasks.push(e.duration))).observe({ type: 'longtask' });
    });
    const openMs = await page.evaluate(async (id) => {
      const g = globalThis as unknown as PageGlobals;
      const start = performance.now();
      g.location.hash = `#/history/${id}`;
      for (;;) {
        await new Promise((resolve) => g.requestAnimationFrame(resolve));
        if (g.document.querySelectorAll('.timeline-row .tl-type').length > 0) return performance.now() - start;
        if (performance.now() - start > 30_000) throw new Error('the timeline did not show within 30 s');
      }
    }, runId);
    const openTasks = await page.evaluate(() => (globalThis as unknown as PageGlobals).__longTasks.splice(0));
    const pagesBefore = pages.length;
    const scroll = await page.evaluate(async (step) => {
      const g = globalThis as unknown as PageGlobals;
      const el = g.document.querySelector('.timeline-scroller')!;
      const start = performance.now();
      let frames = 0;
      let maxRows = 0;
      while (el.scrollTop + el.clientHeight < el.scrollHeight - 1) {
        el.scrollTop = el.scrollTop + step;
        frames += 1;
        await new Promise((resolve) => g.requestAnimationFrame(resolve));
        maxRows = Math.max(maxRows, g.document.querySelectorAll('.timeline-row').length);
      }
      return { ms: performance.now() - start, frames, maxRows };
    }, ROWS_PER_STEP * ROW_PX);
    await page.waitForTimeout(1_000);
    const tasks = await page.evaluate(() => (globalThis as unknown as PageGlobals).__longTasks.splice(0));
    const pending = await page.evaluate(() => (globalThis as unknown as PageGlobals).document.querySelectorAll('.timeline-row .tl-pending').length);
    return {
      method: `browser mode; a session of ~${EXTRA_EVENTS.toLocaleString('en-US')} events seeded (seed-session.ts); scroll = ${ROWS_PER_STEP} rows (${ROWS_PER_STEP * ROW_PX} px) per frame to the end with a longtask observer; one run`,
      seedMs,
      targets: { longTaskMaxMs: 50 },
      openToRowsMs: Math.round(openMs),
      openLongTaskMaxMs: Math.round(Math.max(0, ...openTasks)),
      scrollMs: Math.round(scroll.ms),
      scrollFrames: scroll.frames,
      rowsInDomMax: scroll.maxRows,
      timelinePagesRead: pages.length - pagesBefore,
      rowsStillPendingAfter1s: pending,
      longTaskMaxMs: Math.round(Math.max(0, ...tasks)),
      longTasks: tasks.length,
      longTasksOver50Ms: tasks.filter((d) => d > 50).length,
    };
  } finally {
    await browser.close();
    await app.stop();
    removeDir(dataDir);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) void run().then((figures) => process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`));
