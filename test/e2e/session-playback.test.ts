/**
 * A recorded live session played back offline in Chromium, against the built app (browser mode):
 * a session recorded into the data folder beforehand (seed-session.ts: real eSpeak speech in, a
 * tone out, 2,000 more events, marks, its stereo mix kept), then opened from History and the
 * Gallery. The waveform player decodes each WAV from its /media/ URL (Range-served), plays,
 * seeks by keyboard; the timeline pages through the events; the gallery lists and plays the mix.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAppPage, openAppPage, ROOT, screenshot, type AppPage } from './harness';

const EXTRA_EVENTS = 2_000;

/** The clock's "m:ss.t / m:ss.t" as seconds [position, length]. */
function clockOf(text: string): [number, number] {
  const m = /(\d+):(\d+\.\d) \/ (\d+):(\d+\.\d)/.exec(text);
  if (!m) throw new Error(`no clock in ${JSON.stringify(text)}`);
  return [Number(m[1]) * 60 + Number(m[2]), Number(m[3]) * 60 + Number(m[4])];
}

describe('a recorded session played back (browser mode)', () => {
  let opened: AppPage | undefined;
  let page: Page;
  let runId = '';
  let speechMs = 0;
  const SLOW = { timeout: 30_000 };

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wb-e2e-session-'));
    const out = execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'test/e2e/seed-session.ts'), dataDir, String(EXTRA_EVENTS)], { cwd: ROOT, encoding: 'utf8' });
    const seeded = /^seeded (\S+) (\d+)$/m.exec(out)!;
    runId = seeded[1]!;
    speechMs = Number(seeded[2]);
    opened = await openAppPage({ dataDir, viewport: { width: 1400, height: 1000 } });
    page = opened.page;
    await page.goto(opened.app.url);
    await page.getByText('Sandbox — synthetic outputs').first().waitFor({ timeout: 20_000 });
  }, 180_000);

  afterAll(async () => {
    expect(await closeAppPage(opened)).toBe(0);
  });

  it('opens the session from History: both tracks decoded with their lengths, plays, seeks by keyboard', async () => {
    // As a user finds it: History, then its row (the text it spoke is its prompt).
    await page.getByRole('link', { name: 'History', exact: true }).click();
    await page.getByText('Hello from the workbench').first().click(SLOW);
    await page.waitForURL(new RegExp(`#/history/${runId}$`), SLOW);
    const audio = page.getByRole('region', { name: 'Audio' });
    await audio.waitFor(SLOW).catch(async (error: unknown) => {
      await screenshot(page, 'session-playback-history-missing');
      throw new Error(`${String(error)}\n${page.url()}\n${(await page.locator('body').innerText()).slice(0, 1500)}`);
    });
    const players = audio.locator('.waveform-player');
    await expect.poll(() => players.count(), SLOW).toBe(3); // microphone, speech, stereo mix
    // Each decodes: its clock shows the track's length (speech as eSpeak made it, ±0.1 s).
    for (let i = 0; i < 3; i++) await expect.poll(async () => clockOf(await players.nth(i).locator('.wf-clock').innerText())[1], SLOW).toBeGreaterThan(0);
    const speech = players.nth(1);
    expect(Math.abs(clockOf(await speech.locator('.wf-clock').innerText())[1] * 1000 - speechMs)).toBeLessThanOrEqual(100);
    // The waveform was drawn (wavesurfer renders into a shadow root's canvases).
    expect(await speech.locator('.wf-wave').evaluate((el) => (el.firstElementChild?.shadowRoot?.querySelectorAll('canvas').length ?? 0))).toBeGreaterThan(0);

    await speech.getByRole('button', { name: 'Play speech' }).click();
    await expect.poll(async () => clockOf(await speech.locator('.wf-clock').innerText())[0], SLOW).toBeGreaterThan(0.3);
    await speech.getByRole('button', { name: 'Pause speech' }).click();
    const slider = speech.getByRole('slider', { name: 'speech position' });
    await slider.focus();
    await page.keyboard.press('Home');
    await expect.poll(async () => clockOf(await speech.locator('.wf-clock').innerText())[0]).toBe(0);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => clockOf(await speech.locator('.wf-clock').innerText())[0]).toBe(2);
    await page.keyboard.press('Space');
    await expect.poll(async () => clockOf(await speech.locator('.wf-clock').innerText())[0], SLOW).toBeGreaterThan(2);
    await screenshot(page, 'session-playback-history');
  });

  it('pages through the timeline: the last event reached by keyboard, its JSON on demand', async () => {
    const timeline = page.getByRole('listbox', { name: 'Session timeline' });
    await timeline.waitFor(SLOW);
    expect(await page.locator('.timeline-head').innerText()).toMatch(/[\d,]+ events? and marks/);
    const total = Number((await page.locator('.timeline-head').innerText()).match(/([\d,]+) event/)![1]!.replace(/,/g, ''));
    expect(total).toBeGreaterThan(EXTRA_EVENTS);
    expect(await page.locator('.timeline-row').count()).toBeLessThan(80);
    await expect.poll(() => page.locator('.timeline-row').first().innerText()).toContain('text.delta');
    await timeline.focus();
    await page.keyboard.press('End');
    await expect.poll(() => page.getByLabel('Selected row as JSON').innerText(), SLOW).toContain('"type": "audio.done"');
    await expect.poll(() => page.locator('.timeline-row.selected').innerText()).toContain('audio.done');
  });

  it('lists the stereo mix under Audio in the gallery and plays it in the viewer', async () => {
    await page.getByRole('link', { name: 'Gallery', exact: true }).click();
    await page.getByRole('button', { name: 'Audio', exact: true }).click();
    const tile = page.locator('.tile[data-id]');
    await expect.poll(() => tile.count(), SLOW).toBe(1);
    expect(await tile.innerText()).toContain('0:03');
    // Its mini waveform: made in the page from the decoded WAV, handed to main, shown as the tile's image.
    await expect.poll(() => tile.locator('img').evaluate((img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth > 0).catch(() => false), SLOW).toBe(true);
    await tile.click();
    const viewer = page.getByRole('dialog');
    await expect.poll(async () => clockOf(await viewer.locator('.wf-clock').innerText())[1], SLOW).toBeGreaterThan(3);
    await viewer.getByRole('button', { name: /^Play / }).click();
    await expect.poll(async () => clockOf(await viewer.locator('.wf-clock').innerText())[0], SLOW).toBeGreaterThan(0.3);
    await screenshot(page, 'session-playback-gallery');
  });
});
