/**
 * A History entry with images, in Chromium against the built app (browser mode, built-in
 * sandbox): an image edit of a dropped PNG, then its entry opened from History. What the bridge
 * carries for it (the WebSocket frames, read as they arrive) holds no base64: the images sent and
 * made reach the page by URL and show.
 */
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAppPage, openAppPage, screenshot, type AppPage } from './harness';

/** What the page code below reads (this file is checked without the DOM library). */
interface PageGlobals {
  document: { querySelectorAll(selector: string): ArrayLike<{ naturalWidth: number; complete: boolean }> };
}

/** A 96×64 PNG of noise (so its base64 is long and unlike anything else on the wire). */
function noisePng(): Buffer {
  const png = new PNG({ width: 96, height: 64 });
  let seed = 7;
  for (let i = 0; i < png.data.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    png.data[i] = i % 4 === 3 ? 255 : seed & 0xff;
  }
  return PNG.sync.write(png);
}

describe('History entry with images (browser mode)', () => {
  let opened: AppPage | undefined;
  let page: Page;
  const frames: string[] = [];
  const SLOW = { timeout: 30_000 };

  beforeAll(async () => {
    opened = await openAppPage({ viewport: { width: 1400, height: 1000 } });
    page = opened.page;
    // Every frame main sends the page, as text (binary frames too: base64 would show in them as well).
    page.on('websocket', (ws) => ws.on('framereceived', (frame) => frames.push(typeof frame.payload === 'string' ? frame.payload : frame.payload.toString('latin1'))));
    await page.goto(opened.app.url);
    await page.getByText('Sandbox — synthetic outputs').first().waitFor({ timeout: 20_000 });
  }, 180_000);

  afterAll(async () => {
    expect(await closeAppPage(opened)).toBe(0);
  });

  it('opens an image edit without base64 on the wire, its images shown by URL', async () => {
    const png = noisePng().toString('base64');
    await page.getByRole('link', { name: 'Images' }).click();
    await page.locator('#images-prompt').waitFor();
    await page.evaluate(`(() => {
      const bytes = Uint8Array.from(atob(${JSON.stringify(png)}), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'noise.png', { type: 'image/png' }));
      const target = document.querySelector('.images-view') ?? document.body;
      for (const type of ['dragenter', 'dragover', 'drop']) target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }));
    })()`);
    await expect.poll(() => page.getByText('noise.png').count(), SLOW).toBeGreaterThan(0);
    await page.locator('#images-prompt').fill('paint the noise as a kingfisher');
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Results' }).locator('img').count(), SLOW).toBeGreaterThan(0);

    await page.getByRole('navigation').getByRole('link', { name: 'History' }).click();
    const row = page.getByRole('row').filter({ hasText: 'kingfisher' }).first();
    await expect.poll(() => row.isVisible(), SLOW).toBe(true);
    frames.length = 0;
    await row.getByRole('link').click();
    const strip = page.getByRole('region', { name: 'Media of this run' });
    await expect.poll(() => strip.locator('img').count(), SLOW).toBe(2);
    await expect
      .poll(() => page.evaluate(() => Array.from((globalThis as unknown as PageGlobals).document.querySelectorAll('.media-strip img')).every((img) => img.complete && img.naturalWidth > 0)), SLOW)
      .toBe(true);
    // The entry came over the bridge (its request names the input by blob), and nothing on the wire carried its bytes.
    const wire = frames.join('\n');
    expect(wire).toContain('"$blob"');
    expect(wire).not.toContain(png.slice(40, 200));
    expect(wire).not.toMatch(/base64,/);
    expect(wire).not.toMatch(/[A-Za-z0-9+/]{2000}/);
    await screenshot(page, 'history-media-entry');
  });
});
