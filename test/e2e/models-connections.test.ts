/**
 * The catalogue and connections as a user meets them: prices in USD per 1M tokens from the
 * sandbox's four listings, filtering, a new connection with a wrong key explained, dark theme.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAppPage, openAppPage, screenshot, type AppPage, type RunningApp } from './harness';

describe('Models and Connections (browser mode)', () => {
  let app: RunningApp;
  let page: Page;
  let opened: AppPage | undefined;

  beforeAll(async () => {
    opened = await openAppPage({ tokenDelayMs: 0, viewport: { width: 1400, height: 900 } });
    ({ app, page } = opened);
    await page.goto(app.url);
  });

  afterAll(async () => {
    expect(await closeAppPage(opened)).toBe(0);
  });

  it('lists language, image and video models with prices per 1M tokens and per image', async () => {
    await page.getByRole('link', { name: 'Models' }).click();
    const table = page.getByLabel('Model catalogue');
    await expect.poll(() => table.getByRole('row').count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(6);
    const text = await table.innerText();
    expect(text).toMatch(/svc-4/);
    expect(text).toMatch(/svc-image-1/);
    expect(text).toMatch(/svc-video-1/);
    expect(text).toMatch(/\$\d+\.\d{2}/);
    expect(await page.getByText('Sandbox — synthetic outputs').first().isVisible()).toBe(true);
    await screenshot(page, '10-models');
  });

  it('filters the catalogue by text', async () => {
    await page.getByRole('textbox', { name: 'Filter models' }).fill('image');
    const rows = page.getByLabel('Model catalogue').getByRole('row');
    await expect.poll(() => rows.count()).toBe(2); // header + svc-image-1
    expect(await rows.nth(1).innerText()).toContain('svc-image-1');
  });

  it('adds a connection whose wrong key is explained by Test connection, without ever showing the key', async () => {
    const sandboxUrl = /http:\/\/127\.0\.0\.1:\d+/.exec(app.output().match(/sandbox listening on (\S+)/)?.[1] ?? '')?.[0];
    expect(sandboxUrl).toBeTruthy();
    await page.getByRole('button', { name: 'Connections' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connections' });
    await dialog.getByRole('button', { name: 'Add connection' }).click();
    await dialog.getByLabel('Name').fill('Staging');
    await dialog.getByLabel('Base URL').fill(sandboxUrl!);
    await dialog.getByLabel('API key').fill('sk-e2e-wrong-key-000');
    await dialog.getByRole('button', { name: 'Add connection' }).click();
    await expect.poll(() => dialog.getByText('Staging').count()).toBeGreaterThan(0);
    expect(await page.content()).not.toContain('sk-e2e-wrong-key-000');
    const staging = dialog.getByRole('listitem').filter({ hasText: 'Staging' });
    await staging.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => staging.innerText(), { timeout: 10_000 }).toMatch(/API key/i);
    await screenshot(page, '11-connections-wrong-key');
    await page.keyboard.press('Escape');
  });

  it('switches to the dark theme', async () => {
    await page.getByRole('button', { name: /dark theme/i }).click();
    await expect.poll(async () => (await page.locator('html').getAttribute('class')) ?? '').toContain('app-dark');
    await page.getByRole('link', { name: 'Chat' }).click();
    await screenshot(page, '12-chat-dark');
  });
});
