/**
 * The first slice as a user meets it: open the app (browser mode), see the sandbox label, send a
 * chat and watch it stream, stop a second one mid-stream, reload, find the first in History.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAppPage, openAppPage, outputOf, removeDir, screenshot, type AppPage, type RunningApp } from './harness';

const FIRST_PROMPT = 'Tell me about otters and kelp forests';
const SECOND_PROMPT = 'Write a very long essay about glaciers';

describe('Workbench in the browser (npm start -- --browser)', () => {
  let app: RunningApp;
  let page: Page;
  let opened: AppPage | undefined;

  const { outputText, status } = outputOf(() => page);

  async function send(prompt: string): Promise<void> {
    await page.getByRole('link', { name: 'Chat' }).click();
    await page.getByRole('textbox', { name: 'Message 1' }).fill(prompt);
    await page.getByRole('button', { name: 'Send' }).click();
  }

  beforeAll(async () => {
    opened = await openAppPage({ tokenDelayMs: 15, viewport: { width: 1400, height: 1000 } });
    ({ app, page } = opened);
  });

  afterAll(async () => {
    const code = await closeAppPage(opened, { keepData: true });
    expect(code).toBe(0);
    expect(app.output()).toMatch(/shutting down/);
    expect(existsSync(join(app.dataDir, 'workbench.db-wal'))).toBe(false);
    removeDir(app.dataDir);
  });

  it('prints one URL line, opens on the sandbox and labels it as synthetic', async () => {
    expect(app.output().match(/^Workbench: /gm)).toHaveLength(1);
    await page.goto(app.url);
    await expect.poll(() => page.getByText('Sandbox — synthetic outputs').first().isVisible()).toBe(true);
    for (const name of ['Chat', 'Models', 'History']) {
      expect(await page.getByRole('navigation').getByRole('link', { name }).isVisible()).toBe(true);
    }
    // The token leaves the address bar once the app has it.
    expect(page.url()).not.toContain('token=');
    await screenshot(page, '01-first-launch');
  });

  it('streams a chat answer: the text grows while it runs, then the run completes with usage and cost', async () => {
    await send(FIRST_PROMPT);
    await expect.poll(() => status().innerText(), { timeout: 10_000 }).toBe('running');
    await expect.poll(async () => (await outputText()).length, { timeout: 10_000 }).toBeGreaterThan(80);
    const early = await outputText();
    await screenshot(page, '02-chat-streaming');
    await expect.poll(() => status().innerText(), { timeout: 30_000 }).toBe('completed');
    const done = await outputText();
    expect(done.length).toBeGreaterThan(early.length);
    expect(done).toContain('otters');
    expect(done).toMatch(/Cost\s*\$0\.\d+/);
    await screenshot(page, '03-chat-completed');
  });

  it('stops a second chat mid-stream and keeps its partial text as cancelled', async () => {
    await send(SECOND_PROMPT);
    await expect.poll(async () => (await outputText()).length, { timeout: 10_000 }).toBeGreaterThan(120);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect.poll(() => status().innerText(), { timeout: 10_000 }).toBe('cancelled');
    const partial = await outputText();
    expect(partial).toContain('partial output kept');
    await screenshot(page, '04-chat-cancelled');

    await page.getByRole('link', { name: 'History' }).click();
    const newest = page.getByRole('row').nth(1);
    await expect.poll(() => newest.innerText(), { timeout: 10_000 }).toContain('glaciers');
    expect(await newest.innerText()).toContain('cancelled');
    await newest.getByRole('link').click();
    // Wait for the entry itself (not the list it came from) before reading it.
    await expect.poll(() => page.getByRole('button', { name: 'Open in playground' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(async () => (await page.locator('main').innerText()).length, { timeout: 10_000 }).toBeGreaterThan(200);
    const entry = await page.locator('main').innerText();
    expect(entry).toContain(SECOND_PROMPT);
    expect(entry).toContain('cancelled');
    await screenshot(page, '05-history-cancelled-entry');
  });

  it('finds the first run by History search after a reload and opens it offline', async () => {
    await page.reload();
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByRole('textbox', { name: 'Search history' }).fill('kelp');
    const rows = page.getByRole('row').filter({ hasText: 'kelp' });
    // The search runs after a short debounce: wait for the other run to leave the list.
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'glaciers' }).count(), { timeout: 10_000 }).toBe(0);
    expect(await rows.count()).toBe(1);
    await screenshot(page, '06-history-search');
    await rows.first().getByRole('link').click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toMatch(/svc-/);
    const entry = await page.locator('main').innerText();
    expect(entry).toContain(FIRST_PROMPT);
    expect(entry).toContain('completed');
    expect(entry).toContain('otters');
    await screenshot(page, '07-history-entry');
  });
});
