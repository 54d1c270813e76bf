/**
 * History entries as a user meets them in the built app (browser mode, sandbox): "Run again"
 * sends the recorded request at once and shows the new result beside the recorded one; "Open in
 * playground" shows the recorded output (not an older one) with the request in the form; the
 * list shows each run's figures. And a page opened with a wrong token says so in one banner.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAppPage, openAppPage, outputOf, screenshot, type AppPage, type RunningApp } from './harness';

const PROMPT = 'Describe how herons hunt in shallow water';
const OLDER = 'Name three kinds of owls';

describe('History: open in playground and run again', () => {
  let app: RunningApp;
  let page: Page;
  let opened: AppPage | undefined;
  const { outputText, status } = outputOf(() => page);

  async function send(prompt: string): Promise<void> {
    await page.getByRole('navigation').getByRole('link', { name: 'Chat' }).click();
    await page.getByRole('textbox', { name: 'Message 1' }).fill(prompt);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => status().innerText(), { timeout: 30_000 }).toBe('completed');
  }

  async function openEntry(text: string): Promise<void> {
    await page.getByRole('navigation').getByRole('link', { name: 'History' }).click();
    const row = page.getByRole('row').filter({ hasText: text }).first();
    await expect.poll(() => row.isVisible(), { timeout: 10_000 }).toBe(true);
    await row.getByRole('link').click();
    await expect.poll(() => page.getByRole('button', { name: 'Run again' }).isVisible(), { timeout: 10_000 }).toBe(true);
  }

  beforeAll(async () => {
    opened = await openAppPage({ tokenDelayMs: 10, viewport: { width: 1400, height: 1000 } });
    ({ app, page } = opened);
  });

  afterAll(() => closeAppPage(opened));

  it('lists each run with its first-token time, rate, tokens and cost', async () => {
    await page.goto(app.url);
    await expect.poll(() => page.getByText('Sandbox — synthetic outputs').first().isVisible()).toBe(true);
    await send(PROMPT);
    expect(await outputText()).toMatch(/First token\s*\d+ ms/);
    expect(await outputText()).toMatch(/Tokens\/s\s*[\d.]+ tok\/s/);
    await send(OLDER);
    await page.getByRole('navigation').getByRole('link', { name: 'History' }).click();
    const row = page.getByRole('row').filter({ hasText: 'herons' }).first();
    await expect.poll(() => row.innerText(), { timeout: 10_000 }).toMatch(/[\d.]+ tok\/s\s*first \d+ ms · [\d.]+ m?s\s*\$0\.\d+\s*\d+ → \d+/);
    // Every column fits: the list needs no sideways scrolling at this width.
    const table = page.locator('.history-table .p-datatable-table-container');
    expect(await table.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await screenshot(page, 'history-list-metrics');
  });

  it('runs again at once and shows the new result beside the recorded one', async () => {
    await openEntry('herons');
    const recorded = page.getByRole('region', { name: 'Recorded output' });
    const recordedOutput = () => recorded.getByRole('region', { name: 'Output' });
    const recordedText = await recordedOutput().innerText();
    expect(recordedText).toContain('herons');
    await page.getByRole('button', { name: 'Run again' }).click();
    const fresh = page.getByRole('region', { name: 'New run' });
    await expect.poll(() => fresh.locator('.run-status').innerText(), { timeout: 30_000 }).toBe('completed');
    expect(await fresh.innerText()).toContain('herons');
    expect(await fresh.innerText()).toMatch(/First token\s*\d+ ms/);
    // Side by side: same row, the new one to the right of the recorded one; the recorded one unchanged.
    const [a, b] = [await recorded.boundingBox(), await fresh.boundingBox()];
    expect(Math.abs(a!.y - b!.y)).toBeLessThan(4);
    expect(b!.x).toBeGreaterThan(a!.x + a!.width - 1);
    expect(await recordedOutput().innerText()).toBe(recordedText);
    await screenshot(page, 'history-run-again');
    // The new run is a run of its own, one more row in History.
    await fresh.getByRole('link', { name: 'Open the new run' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Run again' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByRole('navigation').getByRole('link', { name: 'History' }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'herons' }).count(), { timeout: 10_000 }).toBe(2);
  });

  it('opens in the playground with the recorded output as the current result, not the last one shown there', async () => {
    // Chat's last run on screen is the owls one; opening the herons run must replace it.
    await openEntry('herons');
    const recorded = await page.getByRole('region', { name: 'Output' }).last().innerText();
    await page.getByRole('button', { name: 'Open in playground' }).click();
    await expect.poll(() => page.getByRole('textbox', { name: 'Message 1' }).inputValue(), { timeout: 10_000 }).toContain('herons');
    const shown = await outputText();
    expect(shown).not.toContain('owls');
    expect(shown).toContain(recorded.split('\n').find((l) => l.includes('herons'))!.trim());
  });
});

describe('A page opened with a wrong access token', () => {
  let opened: AppPage | undefined;

  beforeAll(async () => {
    opened = await openAppPage({ viewport: { width: 1280, height: 800 } });
  });

  afterAll(() => closeAppPage(opened));

  it('shows one banner saying the running process refused the token, and nothing saying it may not be running', async () => {
    const { app, page } = opened!;
    await page.goto(app.url.replace(/#token=.*/, '#token=not-the-right-token'));
    await expect.poll(() => page.getByText("refused this page's access token").count(), { timeout: 15_000 }).toBe(1);
    // Give the views time to make (and fail) their first calls.
    await page.waitForTimeout(1_500);
    const text = await page.locator('body').innerText();
    if (/still running|Could not load|unavailable/i.test(text)) console.log(text);
    expect(text.match(/access token/g)).toHaveLength(1);
    expect(text).not.toMatch(/still running|Could not load|unavailable/i);
    await screenshot(page, 'wrong-token');
  });
});
