/**
 * The Speech playground in Chromium against the built app (browser mode, the built-in sandbox's
 * eSpeak NG voices): a REST synthesis with timestamps plays from its media URL and lights more
 * characters as its time moves on; a streamed one shows the time to first audio and keeps the
 * whole utterance.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAppPage, openAppPage, screenshot, type AppPage } from './harness';

/** What the page code below reads (this file is checked without the DOM library). */
interface PageGlobals {
  document: { querySelector(selector: string): { currentTime: number; duration: number; readyState: number; dispatchEvent(e: unknown): boolean } | null };
  Event: new (type: string) => unknown;
}

describe('Speech playground (browser mode)', () => {
  let opened: AppPage | undefined;
  let page: Page;
  const SLOW = { timeout: 30_000 };

  beforeAll(async () => {
    opened = await openAppPage({ viewport: { width: 1400, height: 1000 } });
    page = opened.page;
    await page.goto(opened.app.url);
    await page.getByText('Sandbox — synthetic outputs').first().waitFor({ timeout: 20_000 });
    await page.getByRole('link', { name: 'Speech' }).click();
    await page.getByTestId('speech-text').waitFor();
  }, 180_000);

  afterAll(async () => {
    expect(await closeAppPage(opened)).toBe(0);
  });

  const litCount = () => page.locator('[data-testid="spoken-text"] span.said').count();

  it('synthesises over REST with timestamps; the highlight moves with the audio', async () => {
    await page.getByTestId('speech-text').fill('The quick brown fox jumps over the lazy dog, twice.');
    await page.getByTestId('speech-send').click();
    await page.getByTestId('speech-audio').waitFor(SLOW);
    // The audio is served by URL and loads (its duration known to the page).
    await page.waitForFunction(() => ((globalThis as unknown as PageGlobals).document.querySelector('[data-testid="speech-audio"]')?.readyState ?? 0) >= 1, undefined, SLOW);
    const total = await page.locator('[data-testid="spoken-text"] span').count();
    expect(total).toBeGreaterThan(30);
    const seek = (fraction: number) =>
      page.evaluate((f) => {
        const g = globalThis as unknown as PageGlobals;
        const a = g.document.querySelector('[data-testid="speech-audio"]')!;
        a.currentTime = a.duration * f;
        a.dispatchEvent(new g.Event('timeupdate'));
      }, fraction);
    await seek(0.25);
    await expect.poll(litCount, SLOW).toBeGreaterThan(0);
    const early = await litCount();
    await seek(0.8);
    await expect.poll(litCount, SLOW).toBeGreaterThan(early);
    expect(await litCount()).toBeLessThanOrEqual(total);
    await screenshot(page, 'speech-rest');
  });

  it('streams over the WebSocket and shows the time to first audio', async () => {
    await page.getByTestId('mode-stream').check();
    await page.getByTestId('speech-text').fill('Streaming speech arrives in pieces. A second sentence follows the first.');
    await page.getByTestId('speech-send').click();
    await expect.poll(() => page.getByTestId('speech-ttfa').textContent(), SLOW).toMatch(/Time to first audio: \d+ ms · \d+ chunks?/);
    await page.getByTestId('speech-audio').waitFor(SLOW);
    const chunks = Number((await page.getByTestId('speech-ttfa').textContent())!.match(/· (\d+) chunk/)![1]);
    expect(chunks).toBeGreaterThan(1);
    await screenshot(page, 'speech-stream');
  });
});
