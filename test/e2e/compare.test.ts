/**
 * Compare as a user meets it in the built app (browser mode, sandbox): one prompt against two
 * models, both columns stream at once and complete with tokens and cost, and each run is then
 * found in History through its column's link.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAppPage, openAppPage, screenshot, type AppPage, type RunningApp } from './harness';

const PROMPT = 'Explain how tides work near river estuaries';

describe('Compare in the browser', () => {
  let app: RunningApp;
  let page: Page;
  let opened: AppPage | undefined;

  const column = (n: number) => page.locator(`[data-column="${n}"]`);
  const status = (n: number) => column(n).locator('.run-status');

  beforeAll(async () => {
    opened = await openAppPage({ tokenDelayMs: 15, viewport: { width: 1500, height: 1100 } });
    ({ app, page } = opened);
  });

  afterAll(() => closeAppPage(opened));

  it('runs two models side by side: both stream together and complete with tokens and cost', async () => {
    await page.goto(app.url);
    await expect.poll(() => page.getByText('Sandbox — synthetic outputs').first().isVisible()).toBe(true);
    await page.getByRole('navigation').getByRole('link', { name: 'Compare' }).click();
    await page.getByRole('textbox', { name: 'User' }).fill(PROMPT);
    // Each column starts on a different catalogue model.
    await expect.poll(() => column(1).getByRole('combobox').first().innerText(), { timeout: 10_000 }).toMatch(/svc-/);
    const models = [await column(1).getByRole('combobox').first().innerText(), await column(2).getByRole('combobox').first().innerText()];
    expect(models[0]).not.toBe(models[1]);

    await page.getByRole('button', { name: 'Run all' }).click();
    // Both are running at the same time: the runs are concurrent, not one after the other.
    await expect.poll(async () => [await status(1).innerText(), await status(2).innerText()], { timeout: 10_000 }).toEqual(['running', 'running']);
    await expect.poll(() => page.getByRole('button', { name: 'Stop all' }).isVisible()).toBe(true);

    for (const n of [1, 2]) await expect.poll(() => status(n).innerText(), { timeout: 60_000 }).toBe('completed');
    for (const n of [1, 2]) {
      const text = await column(n).innerText();
      expect(text).toMatch(/tide|estuar/i);
      expect(text).toMatch(/Cost\s*\$0\.\d+/);
      expect(text).toMatch(/In\s*\d+/);
      expect(text).toMatch(/Out\s*\d+/);
      expect(text).toMatch(/First token\s*\d+/);
      expect(text).toMatch(/Tokens\/s\s*\d+/);
    }
    // Let the inputs' enabled-again transition finish so the picture shows the settled page.
    await page.waitForTimeout(400);
    await screenshot(page, 'compare');
  });

  it('finds both runs in History from their columns', async () => {
    const models = [await column(1).getByRole('combobox').first().innerText(), await column(2).getByRole('combobox').first().innerText()];
    for (const n of [1, 2]) {
      await page.getByRole('navigation').getByRole('link', { name: 'Compare' }).click();
      await column(n).getByRole('link', { name: 'Open this run in History' }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText(), { timeout: 10_000 }).toContain(models[n - 1]!);
      const entry = await page.locator('main').innerText();
      expect(entry).toContain(PROMPT);
      expect(entry).toContain('completed');
    }
    await page.getByRole('navigation').getByRole('link', { name: 'History' }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'estuaries' }).count(), { timeout: 10_000 }).toBe(2);
  });
});
