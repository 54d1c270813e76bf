/**
 * The Responses playground as a user meets it in the built app (browser mode, sandbox): a
 * three-turn chain, a branch from turn 1, a compaction of the chain and a continuation from it,
 * all shown in one tree; then History lists the Responses runs under the endpoint filter and an
 * entry links back to its chain, which opens from the local record.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAppPage, openAppPage, screenshot, type AppPage, type RunningApp } from './harness';

describe('Responses chains in the browser', () => {
  let app: RunningApp;
  let page: Page;
  let opened: AppPage | undefined;

  const nodes = () => page.getByRole('treeitem');
  const input = () => page.locator('#responses-input');

  /** Sends the input and waits until the answer has joined the tree (the tree grows by one). */
  async function turn(text: string, button: 'Send' | 'Continue' | 'Continue from compaction'): Promise<void> {
    const before = await nodes().count();
    await input().fill(text);
    await page.getByRole('button', { name: button, exact: true }).click();
    await expect.poll(() => nodes().count(), { timeout: 30_000 }).toBe(before + 1);
    await expect.poll(() => page.getByRole('region', { name: 'Output' }).locator('.run-status').innerText()).toBe('completed');
  }

  const levels = async (): Promise<string[]> =>
    nodes().evaluateAll((els) => els.map((el) => `${el.getAttribute('aria-level')}:${el.querySelector('.node-kind')?.textContent ?? ''}`));

  beforeAll(async () => {
    opened = await openAppPage({ tokenDelayMs: 2, viewport: { width: 1400, height: 1100 } });
    ({ app, page } = opened);
  });

  afterAll(() => closeAppPage(opened));

  it('builds a three-turn chain, continuing by previous_response_id without instructions', async () => {
    await page.goto(app.url);
    await expect.poll(() => page.getByText('Sandbox — synthetic outputs').first().isVisible()).toBe(true);
    await page.getByRole('navigation').getByRole('link', { name: 'Responses' }).click();
    await page.locator('#responses-instructions').fill('Answer briefly.');
    await turn('Name a river in Europe', 'Send');
    expect(await page.locator('#responses-instructions').isDisabled()).toBe(true);
    await turn('How long is it?', 'Continue');
    await turn('Which cities does it pass?', 'Continue');
    expect(await levels()).toEqual(['1:Response', '2:Response', '3:Response']);
    expect(await nodes().nth(2).getAttribute('aria-selected')).toBe('true');
    expect(await nodes().nth(0).innerText()).toMatch(/deleted by the service on \d{1,2} \w{3} \d{4} \(in 30 days\)/);
  });

  it('branches from turn 1: the new response is a sibling of turn 2', async () => {
    await nodes().nth(0).click();
    await expect.poll(() => nodes().nth(0).getAttribute('aria-selected')).toBe('true');
    await turn('And a river in Asia?', 'Continue');
    expect(await levels()).toEqual(['1:Response', '2:Response', '3:Response', '2:Response']);
  });

  it('compacts the chain up to turn 3 and continues from the compaction', async () => {
    await nodes().nth(2).click();
    await expect.poll(() => nodes().nth(2).getAttribute('aria-selected')).toBe('true');
    await page.getByRole('button', { name: 'Compact up to here' }).click();
    await expect.poll(() => page.getByRole('treeitem').filter({ hasText: 'Compaction' }).count(), { timeout: 30_000 }).toBe(1);
    const details = page.getByRole('region', { name: 'Compaction' });
    await expect.poll(() => details.isVisible()).toBe(true);
    expect(await details.innerText()).toMatch(/\d+ messages? dropped/);
    // What the compaction saves: the next turn's input is smaller than the chain it replaces.
    expect(await details.innerText()).toMatch(/The next turn sends [1-9][\d,]* fewer input tokens/);
    await turn('Summarise what we said so far', 'Continue from compaction');
    expect(await levels()).toEqual(['1:Response', '2:Response', '3:Response', '4:Compaction', '5:Response', '2:Response']);
    await screenshot(page, 'responses-tree');
  });

  it('lists the Responses runs in History under the endpoint filter and opens an entry back into its chain', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'History' }).click();
    await page.getByRole('combobox', { name: 'Endpoint filter' }).click();
    await page.getByRole('option', { name: 'Responses', exact: true }).click();
    const rows = page.getByRole('row').filter({ hasText: 'Responses' });
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(5);
    expect(await page.getByRole('row').filter({ hasText: 'Responses: compact' }).count()).toBe(0);
    await screenshot(page, 'responses-history');

    await page.getByRole('row').filter({ hasText: 'Name a river in Europe' }).getByRole('link').click();
    const chain = page.getByRole('region', { name: 'Response chain' });
    await expect.poll(() => chain.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await chain.innerText()).toMatch(/deleted by the service on/);
    await chain.getByRole('link', { name: 'Open chain in Responses' }).click();
    await expect.poll(() => nodes().count(), { timeout: 10_000 }).toBe(6);
    expect(await nodes().nth(0).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('region', { name: 'Output' }).innerText()).toContain('completed');
    await screenshot(page, 'responses-reopened');
  });
});
