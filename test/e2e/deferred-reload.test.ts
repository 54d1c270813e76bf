/**
 * A deferred chat outlives its page: send one, reload within a second, and without doing
 * anything the chat view shows it pending and then answered, and History lists it completed
 * with its output. A second one, reloaded straight into History, turns from pending to
 * completed in the list by itself.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAppPage, openAppPage, outputOf, screenshot, type AppPage, type RunningApp } from './harness';

const FIRST = 'Say kingfishers return after the reload';
const SECOND = 'Say herons wait in the shallows';

describe('deferred chat across a page reload (browser mode)', () => {
  let app: RunningApp;
  let page: Page;
  let opened: AppPage | undefined;
  const { outputText, status } = outputOf(() => page);

  async function sendDeferred(prompt: string): Promise<number> {
    await page.getByRole('link', { name: 'Chat' }).click();
    await page.getByRole('textbox', { name: 'Message 1' }).fill(prompt);
    const deferred = page.locator('#param-deferred');
    if (!(await deferred.isChecked())) await page.locator('label[for="param-deferred"]').click();
    expect(await deferred.isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Send' }).click();
    const sentAt = Date.now();
    await expect.poll(() => status().innerText(), { timeout: 5_000, interval: 50 }).toBe('pending');
    return sentAt;
  }

  beforeAll(async () => {
    // The embedded sandbox keeps each deferred completion pending this long (the app reads it at start).
    process.env.WORKBENCH_SANDBOX_DEFERRED_DELAY_MS = '5000';
    try {
      opened = await openAppPage({ tokenDelayMs: 5, viewport: { width: 1400, height: 1000 } });
    } finally {
      delete process.env.WORKBENCH_SANDBOX_DEFERRED_DELAY_MS;
    }
    ({ app, page } = opened);
    await page.goto(app.url);
    await page.getByText('Sandbox — synthetic outputs').first().waitFor({ timeout: 20_000 });
  });

  afterAll(async () => {
    const code = await closeAppPage(opened);
    expect(code).toBe(0);
  });

  it('reloaded within a second, the chat view follows the run from pending to its answer by itself', async () => {
    const sentAt = await sendDeferred(FIRST);
    // Within a second of Send (it was shown pending first), the page goes away.
    expect(Date.now() - sentAt).toBeLessThan(1_000);
    await page.reload();
    // The page is new: the run it shows came from main's job, not from the page that sent it.
    await expect.poll(() => status().innerText(), { timeout: 10_000, interval: 50 }).toBe('pending');
    await screenshot(page, 'deferred-01-pending-after-reload');
    await expect.poll(() => status().innerText(), { timeout: 20_000 }).toBe('completed');
    expect(await outputText()).toContain('kingfishers return after the reload');
    await screenshot(page, 'deferred-02-completed-after-reload');

    await page.getByRole('link', { name: 'History' }).click();
    const row = page.getByRole('row').filter({ hasText: 'kingfishers' });
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    expect(await row.innerText()).toContain('completed');
    await row.getByRole('link').click();
    await expect.poll(() => page.getByRole('button', { name: 'Open in playground' }).isVisible(), { timeout: 10_000 }).toBe(true);
    const entry = await page.locator('main').innerText();
    expect(entry).toContain('completed');
    expect(entry).toContain('kingfishers return after the reload');
    expect(entry).not.toContain('cancelled');
  });

  it('reloaded into History, the run is listed pending and turns completed with no action', async () => {
    await sendDeferred(SECOND);
    await page.reload();
    await page.getByRole('link', { name: 'History' }).click();
    const row = page.getByRole('row').filter({ hasText: 'herons' });
    await expect.poll(() => row.innerText(), { timeout: 10_000, interval: 50 }).toContain('pending');
    await screenshot(page, 'deferred-03-history-pending');
    await expect.poll(() => row.innerText(), { timeout: 20_000 }).toContain('completed');
    expect(await row.innerText()).toContain('herons wait in the shallows');
    await screenshot(page, 'deferred-04-history-completed');
  });
});
