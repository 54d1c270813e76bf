/**
 * The Speech playground in Chromium against the built app (browser mode, the built-in sandbox's
 * eSpeak NG voices): a REST synthesis with timestamps plays on the waveform player from its media
 * URL and lights its characters as it plays and seeks (keyboard, a click on a character); a
 * streamed one shows the time to first audio and keeps the whole utterance.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAppPage, openAppPage, screenshot, type AppPage } from './harness';

/** What the page code below reads (this file is checked without the DOM library). */
interface PageGlobals {
  document: { querySelector(selector: string): { src: string; duration: number; readyState: number } | null };
}

/** The clock's "m:ss.t / m:ss.t" as seconds [position, length]. */
function clockOf(text: string): [number, number] {
  const m = /(\d+):(\d+\.\d) \/ (\d+):(\d+\.\d)/.exec(text);
  if (!m) throw new Error(`no clock in ${JSON.stringify(text)}`);
  return [Number(m[1]) * 60 + Number(m[2]), Number(m[3]) * 60 + Number(m[4])];
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

  const player = () => page.getByTestId('speech-player');
  const litCount = () => player().locator('.wf-text .ch.lit').count();
  const clock = async () => clockOf(await player().locator('.wf-clock').innerText());

  it('synthesises over REST with timestamps; the highlight moves as the waveform plays and seeks', async () => {
    await page.getByTestId('speech-text').fill('The quick brown fox jumps over the lazy dog, twice.');
    await page.getByTestId('speech-send').click();
    await player().waitFor(SLOW);
    // The kept audio loads from its media URL and decodes: the clock shows its length.
    await expect.poll(async () => (await clock())[1], SLOW).toBeGreaterThan(1);
    const total = await player().locator('.wf-text .ch').count();
    expect(total).toBeGreaterThan(30);
    // Playing lights characters as the audio goes.
    await player().getByRole('button', { name: 'Play Speech' }).click();
    await expect.poll(litCount, SLOW).toBeGreaterThan(2);
    await player().getByRole('button', { name: 'Pause Speech' }).click();
    const played = await litCount();
    expect(played).toBeLessThan(total);
    // Seeking by keyboard: End lights them all, Home puts the highlight back at the start.
    await player().getByRole('slider', { name: 'Speech position' }).focus();
    await page.keyboard.press('End');
    await expect.poll(litCount, SLOW).toBe(total);
    await page.keyboard.press('Home');
    await expect.poll(litCount, SLOW).toBeLessThanOrEqual(1);
    // Clicking a character seeks to it: everything before it is lit, the end of the text is not.
    const middle = Math.floor(total / 2);
    await player().locator('.wf-text .ch').nth(middle).click();
    await expect.poll(litCount, SLOW).toBeGreaterThan(middle);
    expect(await litCount()).toBeLessThan(total);
    expect((await clock())[0]).toBeGreaterThan(0);
    await screenshot(page, 'speech-rest');
  });

  it('streams over the WebSocket and shows the time to first audio', async () => {
    await page.getByTestId('mode-stream').check();
    await page.getByTestId('speech-text').fill('Streaming speech arrives in pieces. A second sentence follows the first.');
    await page.getByTestId('speech-send').click();
    await expect.poll(() => page.getByTestId('speech-ttfa').textContent(), SLOW).toMatch(/Time to first audio: \d+ ms · \d+ chunks?/);
    await player().waitFor(SLOW);
    await expect.poll(async () => (await clock())[1], SLOW).toBeGreaterThan(1);
    const chunks = Number((await page.getByTestId('speech-ttfa').textContent())!.match(/· (\d+) chunk/)![1]);
    expect(chunks).toBeGreaterThan(1);
    await screenshot(page, 'speech-stream');
  });

  it('previews the chosen voice: a short sample in it loads from a media URL and plays', async () => {
    await page.getByTestId('speech-voice-preview').click();
    const state = () =>
      page.evaluate(() => {
        const a = (globalThis as unknown as PageGlobals).document.querySelector('[data-testid="speech-voice-preview-audio"]');
        return a ? { src: a.src, duration: a.duration, readyState: a.readyState } : null;
      });
    await expect.poll(async () => (await state())?.readyState ?? 0, SLOW).toBeGreaterThanOrEqual(1);
    const s = (await state())!;
    expect(s.src).toMatch(/\/media\/[0-9a-f]{64}/);
    expect(s.duration).toBeGreaterThan(0.3);
    expect(await page.getByTestId('speech-preview-error').count()).toBe(0);
  });
});
