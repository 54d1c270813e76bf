/**
 * Gallery benchmark (issue 9): 2,000 items, each with its thumbnail, seeded straight into a fresh
 * data folder's store (the gallery repository and the blob store, as the images service leaves
 * them), then the app in browser mode and a cold Chromium:
 * - openToFirstThumbsMs: from the click on Gallery in the nav (the view's code not loaded yet)
 *   until every tile of the first visible row shows its decoded thumbnail (img.complete and
 *   naturalWidth > 0), polled every animation frame. Target ≤ 300 ms.
 * - scroll: the grid scrolled from top to bottom in steps of 240 px per animation frame (about
 *   twice a fast wheel), with a PerformanceObserver on `longtask`: the longest, how many, and the
 *   frames. Target: none over 50 ms.
 * Figures are medians of three runs, each listed.
 *
 * Run alone: npx tsx test/bench/run.ts gallery (results in bench/results-gallery.json).
 * Needs main/store/gallery.ts (the images service's branch): it runs once that is merged.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeDatabase, openDatabase } from '../../main/store/db';
import { BlobStore } from '../../main/store/blobs';
import { insertGalleryItem, setGalleryThumb } from '../../main/store/gallery';
import { encodeJpeg } from '../../main/sandbox/media/image-codec';
import { launchBrowser, removeDir, startApp } from '../e2e/harness';
import { prng } from './history';

const ITEMS = 2_000;
const RUNS = 3;
/** Distinct full-size images (items share them: the grid only loads thumbnails). */
const FULL_IMAGES = 16;
const THUMB_SIDE = 256;
const SCROLL_STEP_PX = 240;
const PROMPTS = ['a lighthouse at dusk', 'a fox in the snow', 'a paper boat on a river', 'neon city in the rain', 'a bowl of ramen', 'an astronaut reading'];

/** A `w`×`h` picture with a gradient and noise of its own, so every blob and its decode differ. */
function picture(seed: number, w: number, h: number): Uint8Array {
  const random = prng(seed);
  const [r0, g0, b0] = [random() * 255, random() * 255, random() * 255];
  const rgba = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      const n = random() * 40;
      rgba[i] = (r0 + (x / w) * 120 + n) % 256;
      rgba[i + 1] = (g0 + (y / h) * 120 + n) % 256;
      rgba[i + 2] = (b0 + ((x + y) / (w + h)) * 120) % 256;
      rgba[i + 3] = 255;
    }
  }
  return encodeJpeg(rgba, w, h, 80);
}

/** Seeds `ITEMS` gallery items with thumbnails into the data folder (before the app starts). */
async function seed(dataDir: string): Promise<{ seedMs: number; thumbBytes: number }> {
  const started = performance.now();
  const db = openDatabase(join(dataDir, 'workbench.db'));
  const blobs = new BlobStore(join(dataDir, 'blobs'));
  let thumbBytes = 0;
  try {
    const full = [];
    for (let i = 0; i < FULL_IMAGES; i++) full.push(await blobs.put(picture(10_000 + i, 1024, 1024)));
    const now = Date.now();
    for (let i = 0; i < ITEMS; i++) {
      const blob = full[i % FULL_IMAGES]!;
      const id = `gal_bench${i.toString().padStart(6, '0')}`;
      const createdAt = now - i * 60_000;
      insertGalleryItem(db, {
        id,
        kind: 'image',
        origin: 'generated',
        hash: blob.hash,
        mime: 'image/jpeg',
        bytes: blob.size,
        width: 1024,
        height: 1024,
        duration: null,
        prompt: `${PROMPTS[i % PROMPTS.length]} #${i}`,
        revisedPrompt: null,
        model: 'svc-image-1',
        name: `bench-${i}.jpg`,
        createdAt,
        runId: null,
        jobId: null,
        sourceIds: [],
      });
      const thumb = picture(i, THUMB_SIDE, THUMB_SIDE);
      thumbBytes += thumb.byteLength;
      const info = await blobs.put(thumb);
      setGalleryThumb(db, id, { ...info, mime: 'image/jpeg' }, createdAt);
    }
  } finally {
    closeDatabase(db);
  }
  return { seedMs: Math.round(performance.now() - started), thumbBytes };
}

interface GalleryRun {
  openToFirstThumbsMs: number;
  firstRowTiles: number;
  tilesInDom: number;
  scrollMs: number;
  scrollFrames: number;
  longTaskMaxMs: number;
  longTasks: number;
  longTasksOver50Ms: number;
}

/** The little of the page the probes read (this file is checked without the DOM library). */
interface PageEl {
  complete: boolean;
  naturalWidth: number;
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  click(): void;
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageEl | null;
  querySelectorAll(selector: string): ArrayLike<PageEl>;
}

interface PageGlobals {
  document: PageEl;
  requestAnimationFrame(callback: (time: number) => void): number;
  PerformanceObserver: new (callback: (list: { getEntries(): { duration: number }[] }) => void) => { observe(options: { type: string }): void };
  __longTasks: number[];
}

async function once(dataDir: string): Promise<GalleryRun> {
  const app = await startApp({ dataDir });
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(app.url);
    await page.waitForSelector('.view textarea', { timeout: 60_000 });
    // Page code: anonymous functions only (tsx's keepNames would wrap named ones in a __name the
    // page lacks), with its own minimal types (this file is checked without the DOM library).
    // Long tasks from here on are recorded in the page.
    await page.evaluate(() => {
      const g = globalThis as unknown as PageGlobals;
      g.__longTasks = [];
      new g.PerformanceObserver((list) => list.getEntries().forEach((e) => g.__longTasks.push(e.duration))).observe({ type: 'longtask' });
    });
    const openMs = await page.evaluate(async () => {
      const g = globalThis as unknown as PageGlobals;
      const link = g.document.querySelector('nav a[href="#/gallery"]');
      if (!link) throw new Error('no Gallery link in the nav');
      const t0 = performance.now();
      link.click();
      for (;;) {
        await new Promise((resolve) => g.requestAnimationFrame(resolve));
        const cols = Number(g.document.querySelector('.gallery-scroller')?.getAttribute('aria-colcount') ?? 0);
        const imgs = Array.from(g.document.querySelectorAll('.tile[data-index] img')).slice(0, cols);
        if (cols > 0 && imgs.length === cols && imgs.every((i) => i.complete && i.naturalWidth > 0)) return { ms: performance.now() - t0, first: cols };
        if (performance.now() - t0 > 30_000) throw new Error('the first thumbnails did not show within 30 s');
      }
    });
    const tilesInDom = await page.evaluate(() => (globalThis as unknown as PageGlobals).document.querySelectorAll('.tile[data-index]').length);
    await page.evaluate(() => ((globalThis as unknown as PageGlobals).__longTasks = []));
    const scroll = await page.evaluate(async (step) => {
      const g = globalThis as unknown as PageGlobals;
      const el = g.document.querySelector('.gallery-scroller')!;
      const t0 = performance.now();
      let frames = 0;
      while (el.scrollTop + el.clientHeight < el.scrollHeight - 1) {
        el.scrollTop = el.scrollTop + step;
        frames += 1;
        await new Promise((resolve) => g.requestAnimationFrame(resolve));
      }
      return { ms: performance.now() - t0, frames };
    }, SCROLL_STEP_PX);
    // Let the last page reads and decodes settle, so their long tasks are counted too.
    await page.waitForTimeout(1_000);
    const tasks = await page.evaluate(() => (globalThis as unknown as PageGlobals).__longTasks);
    return {
      openToFirstThumbsMs: Math.round(openMs.ms),
      firstRowTiles: openMs.first,
      tilesInDom,
      scrollMs: Math.round(scroll.ms),
      scrollFrames: scroll.frames,
      longTaskMaxMs: Math.round(Math.max(0, ...tasks)),
      longTasks: tasks.length,
      longTasksOver50Ms: tasks.filter((d) => d > 50).length,
    };
  } finally {
    await browser.close();
    await app.stop();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Runs the benchmark and returns its figures (it reports; it does not assert timings). */
export async function run(): Promise<Record<string, unknown>> {
  const runs: GalleryRun[] = [];
  let seeded: { seedMs: number; thumbBytes: number } | null = null;
  for (let i = 0; i < RUNS; i++) {
    // A fresh data folder and a cold browser per run; the same seed each time.
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-gallery-'));
    try {
      seeded = await seed(dataDir);
      runs.push(await once(dataDir));
    } finally {
      removeDir(dataDir);
    }
  }
  const pick = (key: keyof GalleryRun) => median(runs.map((r) => r[key]));
  return {
    method: `browser mode, ${ITEMS} image items with ${THUMB_SIDE} px JPEG thumbnails seeded into the store; open = click on Gallery to the first row's thumbnails decoded; scroll = ${SCROLL_STEP_PX} px per frame to the end with a longtask observer; medians of ${RUNS} runs`,
    items: ITEMS,
    seed: seeded,
    targets: { openToFirstThumbsMs: 300, longTaskMaxMs: 50 },
    median: {
      openToFirstThumbsMs: pick('openToFirstThumbsMs'),
      tilesInDom: pick('tilesInDom'),
      scrollMs: pick('scrollMs'),
      longTaskMaxMs: pick('longTaskMaxMs'),
      longTasksOver50Ms: pick('longTasksOver50Ms'),
    },
    runs,
  };
}
