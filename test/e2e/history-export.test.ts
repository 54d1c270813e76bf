/**
 * History as a daily user meets it after a comparison: the two Compare runs are listed as one
 * labelled block, a search shows the passage that matched with the match highlighted, and the two
 * selected runs export as a JSON Lines file of two records, without the key.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAppPage, openAppPage, screenshot, type AppPage, type RunningApp } from './harness';

const PROMPT = 'Describe how glaciers carve fjords';

describe('History groups, snippets and export in the browser', () => {
  let app: RunningApp;
  let page: Page;
  let opened: AppPage | undefined;

  beforeAll(async () => {
    opened = await openAppPage({ tokenDelayMs: 5, viewport: { width: 1400, height: 900 } });
    ({ app, page } = opened);
  });

  afterAll(() => closeAppPage(opened));

  it('lists a comparison as one block labelled Compare', async () => {
    await page.goto(app.url);
    await page.getByRole('navigation').getByRole('link', { name: 'Compare' }).click();
    await page.getByRole('textbox', { name: 'User' }).fill(PROMPT);
    await expect.poll(() => page.locator('[data-column="2"]').getByRole('combobox').first().innerText(), { timeout: 10_000 }).toMatch(/svc-/);
    await page.getByRole('button', { name: 'Run all' }).click();
    for (const n of [1, 2]) await expect.poll(() => page.locator(`[data-column="${n}"] .run-status`).innerText(), { timeout: 60_000 }).toBe('completed');

    await page.getByRole('navigation').getByRole('link', { name: 'History' }).click();
    const rows = page.locator('.history-table tbody tr');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
    await expect.poll(() => page.locator('tr.in-group').count()).toBe(2);
    expect(await page.getByText('Compare · 2').count()).toBe(1);
  });

  it('shows why a row matched a search, the match highlighted', async () => {
    await page.getByRole('textbox', { name: 'Search history' }).fill('fjord');
    await expect.poll(() => page.locator('.history-table mark').first().innerText(), { timeout: 10_000 }).toMatch(/^fjords?$/i);
    expect(await page.locator('.history-table tbody tr').count()).toBe(2);
    await screenshot(page, 'history-snippet-group');
    await page.getByRole('textbox', { name: 'Search history' }).fill('');
  });

  it('exports the two selected runs as a JSON Lines file of two records without the key', async () => {
    const exportButton = page.getByRole('button', { name: 'Export as JSONL' });
    expect(await exportButton.isDisabled()).toBe(true);
    const boxes = page.locator('.history-table tbody tr input[type="checkbox"]');
    await expect.poll(() => boxes.count(), { timeout: 10_000 }).toBe(2);
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await expect.poll(() => page.getByRole('button', { name: 'Export 2 as JSONL' }).isEnabled()).toBe(true);
    const downloadEvent = page.waitForEvent('download', { timeout: 30_000 });
    await page.getByRole('button', { name: 'Export 2 as JSONL' }).click();
    const download = await downloadEvent;
    expect(download.suggestedFilename()).toMatch(/^workbench-runs-.*\.jsonl$/);
    const text = readFileSync((await download.path())!, 'utf8');
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    const runs = lines.map((line) => JSON.parse(line) as { format: string; group: { kind: string } | null; status: string; request: { body: { messages: Array<{ content: string }> } } });
    expect(runs.map((r) => [r.format, r.group?.kind, r.status])).toEqual([
      ['inference-workbench.run/1', 'compare', 'completed'],
      ['inference-workbench.run/1', 'compare', 'completed'],
    ]);
    expect(runs[0].request.body.messages.at(-1)?.content).toBe(PROMPT);
    const key = readFileSync(join(app.dataDir, 'sandbox', 'key'), 'utf8').trim();
    expect(text).not.toContain(key);
    await expect.poll(() => page.getByText('Exported as JSONL').isVisible()).toBe(true);
  });
});
