/**
 * Images and video as a user meets them, in Chromium against the app in browser mode and a
 * sandbox of the test's own (so it can be stopped): drop a PNG on Images, edit it, find both in
 * the Gallery; make a video from the result, watch its progress, reload mid-job and find it still
 * going, get the page's notification, play it (readyState ≥ 2, the asked duration); create one
 * with the sandbox's failure header typed in Videos' request headers, its cost estimated first, and
 * see it fail; then stop the sandbox and play the video and browse the gallery offline.
 */
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../main/sandbox';
import { closeAppPage, openAppPage, screenshot, useServiceConnection, type AppPage } from './harness';

/** What the page code below reads (this file is checked without the DOM library). */
interface PageGlobals {
  document: {
    querySelector(selector: string): { readyState: number; duration: number; naturalWidth: number; complete: boolean } | null;
    querySelectorAll(selector: string): ArrayLike<{ naturalWidth: number; complete: boolean }>;
  };
  __notes: string[];
}

/** A 320×240 PNG: red on the left, a blue band on the right. */
function redPng(): Buffer {
  const png = new PNG({ width: 320, height: 240 });
  for (let y = 0; y < 240; y++) {
    for (let x = 0; x < 320; x++) {
      const i = (y * 320 + x) * 4;
      const blue = x > 240;
      png.data[i] = blue ? 20 : 220;
      png.data[i + 1] = 30;
      png.data[i + 2] = blue ? 200 : 40;
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

describe('Images and video (browser mode)', () => {
  let opened: AppPage | undefined;
  let page: Page;
  let sb: SandboxServer;
  const key = 'sk-e2e-media-000';
  const SLOW = { timeout: 30_000 };

  const advanceClock = async (seconds: number): Promise<void> => {
    const res = await fetch(`${sb.url}/sandbox/clock/advance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ seconds }),
    });
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    // The sandbox clock stands still unless the test moves it, so progress moves only when told.
    const t0 = Date.now();
    sb = await startSandbox({ keys: [key], tokenDelayMs: 0, now: () => t0 });
    opened = await openAppPage({ viewport: { width: 1400, height: 1000 } });
    page = opened.page;
    const origin = new URL(opened.app.url).origin;
    await page.context().grantPermissions(['notifications'], { origin });
    // Records the page's desktop notifications (headless Chromium shows none).
    await page.addInitScript(() => {
      const w = globalThis as unknown as { Notification: unknown; __notes: string[] };
      w.__notes = [];
      class Recorded {
        static permission = 'granted';
        static requestPermission = async () => 'granted';
        onclick: unknown = null;
        constructor(title: string, options?: { body?: string }) {
          w.__notes.push(`${title} | ${options?.body ?? ''}`);
        }
        close(): void {}
      }
      w.Notification = Recorded;
    });
    await page.goto(opened.app.url);

    // The test's sandbox as a connection, made active.
    await useServiceConnection(page, { name: 'Media sandbox', url: sb.url, key });
  }, 180_000);

  afterAll(async () => {
    await sb?.close();
    expect(await closeAppPage(opened)).toBe(0);
  });

  it('edits a dropped PNG and keeps the input and the result in the gallery', async () => {
    await page.getByRole('link', { name: 'Images' }).click();
    await page.locator('#images-prompt').waitFor();
    const b64 = redPng().toString('base64');
    // A real drop: a DataTransfer carrying a File, as the OS gives one (page code as a string: no DOM types here).
    await page.evaluate(`(() => {
      const bytes = Uint8Array.from(atob(${JSON.stringify(b64)}), (c) => c.charCodeAt(0));
      const file = new File([bytes], 'red-square.png', { type: 'image/png' });
      const dt = new DataTransfer();
      dt.items.add(file);
      const target = document.querySelector('.images-view') ?? document.body;
      for (const type of ['dragenter', 'dragover', 'drop']) target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }));
    })()`);
    await expect.poll(() => page.getByText('red-square.png').count(), SLOW).toBeGreaterThan(0);
    await page.locator('#images-prompt').fill('turn it into a watercolour of a red kite');
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const results = page.getByRole('region', { name: 'Results' });
    await expect.poll(() => results.locator('img').count(), SLOW).toBeGreaterThan(0);
    await expect
      .poll(() => page.evaluate(() => Array.from((globalThis as unknown as PageGlobals).document.querySelectorAll('.results img')).every((img) => img.complete && img.naturalWidth > 0)), SLOW)
      .toBe(true);
    await screenshot(page, 'media-01-image-edited');

    await page.getByRole('link', { name: 'Gallery' }).click();
    const grid = page.getByRole('grid', { name: 'Gallery' });
    // The dropped input and the edit; each tile's thumbnail made by the page and loaded.
    await expect.poll(() => grid.locator('button.tile').count(), SLOW).toBe(2);
    await expect.poll(() => grid.locator('button.tile img').count(), SLOW).toBe(2);
    await page.locator('#gallery-search').fill('watercolour');
    await expect.poll(() => grid.locator('button.tile').count(), SLOW).toBe(1);
    await page.locator('#gallery-search').fill('');
    await screenshot(page, 'media-02-gallery');
  });

  it('makes a video from the edited image: progress, a reload mid-job, the notification, playback', async () => {
    await page.getByRole('link', { name: 'Images' }).click();
    await page.getByRole('region', { name: 'Results' }).getByRole('button', { name: 'Use as video input' }).first().click();
    await expect.poll(() => page.url(), SLOW).toContain('#/videos');
    await page.locator('#video-prompt').fill('the kite drifts over the sea');
    await page.locator('#video-duration').fill('2');
    await page.locator('#video-resolution').click();
    await page.getByRole('option', { name: /480p/ }).click();
    await page.getByRole('button', { name: 'Create', exact: true }).click();

    const card = page.getByRole('region', { name: 'Video jobs' }).locator('.job-card').first();
    await expect.poll(() => card.getAttribute('data-state'), SLOW).toBe('pending');
    const progress = () => card.locator('[role="progressbar"]').first().getAttribute('aria-valuenow').then(Number);
    await advanceClock(3);
    await expect.poll(progress, SLOW).toBeGreaterThan(0);
    const before = await progress();
    await screenshot(page, 'media-03-video-progress');

    // Reloaded mid-job, the card is still there and still moving.
    await page.reload();
    await screenshot(page, 'media-03b-reloaded');
    const again = page.getByRole('region', { name: 'Video jobs' }).locator('.job-card').first();
    await expect.poll(() => again.getAttribute('data-state'), SLOW).toBe('pending');
    await advanceClock(3);
    await expect.poll(() => again.locator('[role="progressbar"]').first().getAttribute('aria-valuenow').then(Number), SLOW).toBeGreaterThan(before);

    await advanceClock(30);
    await expect.poll(() => again.getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as PageGlobals).__notes), SLOW).toHaveLength(1);
    expect((await page.evaluate(() => (globalThis as unknown as PageGlobals).__notes))[0]).toMatch(/video/i);
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as PageGlobals).document.querySelector('.job-video')?.readyState ?? 0), SLOW).toBeGreaterThanOrEqual(2);
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.querySelector('.job-video')!.duration)).toBeCloseTo(2, 0);
    await screenshot(page, 'media-04-video-done');
  });

  it("says a job's cost before it is created, and sends Videos' request headers: the sandbox's failure header fails it", async () => {
    await page.getByRole('link', { name: 'Videos' }).click();
    await page.locator('#video-prompt').fill('a gull that never takes off');
    await page.locator('#video-duration').fill('1');
    // This sandbox is a connection like any service's (not the built-in one): its listing has no
    // video price, so the estimate says so rather than guess (the built-in's rates: VideosView.test.ts).
    await expect.poll(() => page.getByTestId('cost-estimate').innerText()).toMatch(/^Estimated cost: unknown \(the service lists no video price/);
    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByRole('textbox', { name: 'Header 1 name' }).fill('x-sandbox-video-fail');
    await page.getByRole('textbox', { name: 'Header 1 value' }).fill('internal_error');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const card = page.getByRole('region', { name: 'Video jobs' }).locator('.job-card').first();
    await expect.poll(() => card.innerText(), SLOW).toContain('a gull that never takes off');
    // The card shows the prompt while the create is in flight: move the clock only once the sandbox
    // has the job (under load the clock moved first once, and the job then waited for 10 s more).
    await expect.poll(() => card.getAttribute('data-state'), SLOW).not.toBe('creating');
    await advanceClock(10);
    await expect.poll(() => card.getAttribute('data-state'), { timeout: 60_000 }).toBe('failed');
    expect(await card.innerText()).toContain('internal_error');
    await screenshot(page, 'media-04b-video-failed-by-header');
    // Later jobs go without it.
    await page.getByRole('button', { name: 'Remove header 1' }).click();
  });

  it('plays the video and browses the gallery with the sandbox stopped', async () => {
    await sb.close();
    await page.reload();
    await page.getByRole('link', { name: 'Gallery' }).click();
    const grid = page.getByRole('grid', { name: 'Gallery' });
    await expect.poll(() => grid.locator('button.tile').count(), SLOW).toBeGreaterThanOrEqual(3);
    await page.locator('#gallery-search').fill('kite drifts');
    await expect.poll(() => grid.locator('button.tile').count(), SLOW).toBe(1);
    await grid.locator('button.tile').first().click();
    const video = page.locator('.viewer-video');
    await video.waitFor(SLOW);
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as PageGlobals).document.querySelector('.viewer-video')?.readyState ?? 0), SLOW).toBeGreaterThanOrEqual(2);
    // Seeking works offline (the blob store answers Range requests).
    await page.evaluate(() => {
      const v = (globalThis as unknown as PageGlobals).document.querySelector('.viewer-video') as unknown as { currentTime: number };
      v.currentTime = 1.5;
    });
    await expect.poll(() => page.evaluate(() => ((globalThis as unknown as PageGlobals).document.querySelector('.viewer-video') as unknown as { currentTime: number; readyState: number }).readyState), SLOW).toBeGreaterThanOrEqual(2);
    await screenshot(page, 'media-05-offline-video');
  });
});
