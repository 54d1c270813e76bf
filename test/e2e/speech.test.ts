/**
 * The Speech playground in Chromium against the built app (browser mode, the built-in sandbox's
 * eSpeak NG voices): a REST synthesis with timestamps plays on the waveform player from its media
 * URL and lights its characters as it plays and seeks (keyboard, a click on a character); a
 * streamed one shows the time to first audio, its waveform growing with its characters while it
 * plays, and keeps the whole utterance; compare mode speaks the same text with two voices side by
 * side, both runs in History; the form is a draft that a reload and a restart bring back.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAppPage, openAppPage, screenshot, startApp, type AppPage } from './harness';

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
    // While it arrives and plays: the waveform of what arrived, and its characters.
    const wave = page.getByTestId('speech-live-wave');
    await expect.poll(() => wave.count(), SLOW).toBe(1);
    expect(Number(await wave.getAttribute('data-columns'))).toBeGreaterThan(0);
    expect((await page.getByTestId('speech-live-text').textContent())!.length).toBeGreaterThan(0);
    // The page's player plays it: its clock lights the characters heard, before the audio is kept.
    await expect.poll(() => page.locator('[data-testid="speech-live-text"] .ch.lit').count(), SLOW).toBeGreaterThan(3);
    expect(await page.getByTestId('speech-live-clock').innerText()).toMatch(/^\d:\d\d\.\d played · \d:\d\d\.\d received$/);
    await screenshot(page, 'speech-stream-live');
    await expect.poll(() => page.getByTestId('speech-ttfa').textContent(), SLOW).toMatch(/Time to first audio: \d+ ms · \d+ chunks?/);
    await player().waitFor(SLOW);
    await expect.poll(async () => (await clock())[1], SLOW).toBeGreaterThan(1);
    const chunks = Number((await page.getByTestId('speech-ttfa').textContent())!.match(/· (\d+) chunk/)![1]);
    expect(chunks).toBeGreaterThan(1);
    await screenshot(page, 'speech-stream');
  });

  const COMPARED = 'Two voices say the same words, side by side.';

  it('compare mode: the same text in two voices side by side, each on its waveform, both runs in History', async () => {
    await page.getByTestId('mode-rest').check();
    await page.getByTestId('speech-codec').selectOption('mp3');
    await page.getByTestId('speech-compare').check();
    await page.getByTestId('speech-voice-b').selectOption('rex');
    await page.getByTestId('speech-text').fill(COMPARED);
    await page.getByTestId('speech-send').click();
    const cards = page.getByTestId('speech-run-card');
    await expect.poll(() => cards.evaluateAll((els) => els.map((e) => (e as unknown as { getAttribute(n: string): string }).getAttribute('aria-label')))).toEqual(['Voice eve', 'Voice rex']);
    // Each result decodes on its own player, with its characters and its facts.
    for (const i of [0, 1]) {
      const card = cards.nth(i);
      await card.getByTestId('speech-player').waitFor(SLOW);
      await expect.poll(async () => clockOf(await card.locator('.wf-clock').innerText())[1], SLOW).toBeGreaterThan(1);
      expect(await card.locator('.wf-text .ch').count()).toBe(COMPARED.length);
      expect(await card.getByTestId('speech-result-facts').innerText()).toMatch(/^\d+\.\d\d s · audio\/mpeg · \d+ ms in all · cost: none \(unpriced\)$/);
      expect(await card.getByTestId('speech-save').isVisible()).toBe(true);
    }
    await screenshot(page, 'speech-compare');
    // Both are runs in History, one per voice.
    await page.getByRole('navigation').getByRole('link', { name: 'History' }).click();
    const rows = page.getByRole('row').filter({ hasText: COMPARED });
    await expect.poll(() => rows.count(), SLOW).toBe(2);
    expect((await rows.allInnerTexts()).map((t) => (/\brex\b/.test(t) ? 'rex' : /\beve\b/.test(t) ? 'eve' : '?')).sort()).toEqual(['eve', 'rex']);
    await page.getByRole('navigation').getByRole('link', { name: 'Speech' }).click();
    await page.getByTestId('speech-text').waitFor();
  });

  it('the form is a kept draft: a reload and a restart of the app bring it back', async () => {
    const kept = async () => ({
      text: await page.getByTestId('speech-text').inputValue(),
      voiceB: await page.getByTestId('speech-voice-b').inputValue(),
      compare: await page.getByTestId('speech-compare').isChecked(),
      rest: await page.getByTestId('mode-rest').isChecked(),
    });
    const want = { text: COMPARED, voiceB: 'rex', compare: true, rest: true };
    await page.reload();
    await page.getByTestId('speech-text').waitFor(SLOW);
    await expect.poll(kept, SLOW).toEqual(want);
    // A restart on the same data folder.
    const dataDir = opened!.app.dataDir;
    expect(await opened!.app.stop()).toBe(0);
    opened!.app = await startApp({ dataDir });
    await page.goto(opened!.app.url);
    await page.getByText('Sandbox — synthetic outputs').first().waitFor({ timeout: 20_000 });
    await page.getByRole('navigation').getByRole('link', { name: 'Speech' }).click();
    await page.getByTestId('speech-text').waitFor(SLOW);
    await expect.poll(kept, SLOW).toEqual(want);
    await page.getByTestId('speech-compare').uncheck();
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
