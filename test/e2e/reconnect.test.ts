/**
 * A tab left open across restarts of the app (same port, same data folder, a new token each
 * time), in Chromium against browser mode and a sandbox of the test's own whose clock only moves
 * when told: while the app is gone the tab says its data may be out of date and its job clock
 * stands still; the new link pasted into the same tab (a same-document navigation, no reload)
 * reconnects it and it catches up with a video job that finished while it was cut off; F5 keeps
 * working; and after one more restart, F5 with the stale stored token says to open the new link,
 * which then works in that tab.
 */
import { createServer } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../main/sandbox';
import { launchBrowser, removeDir, screenshot, startApp, useServiceConnection, type RunningApp } from './harness';

/** A port free right now (the app is then started on it, and again on it after each stop). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** What the page code below reads (this file is checked without the DOM library). */
interface PageGlobals {
  location: { href: string };
  __sameDocument?: boolean;
}

describe('a tab open across a restart (browser mode)', () => {
  let app: RunningApp | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let sb: SandboxServer;
  let port: number;
  let dataDir: string;
  const key = 'sk-e2e-reconnect-000';
  const SLOW = { timeout: 30_000 };
  const banner = () => page.locator('.bridge-status');
  const card = () => page.getByRole('region', { name: 'Video jobs' }).locator('.job-card').first();
  const elapsed = () => card().locator('.elapsed');

  const advanceClock = async (seconds: number): Promise<void> => {
    const res = await fetch(`${sb.url}/sandbox/clock/advance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ seconds }),
    });
    expect(res.status).toBe(200);
  };

  /** Stops the app and starts it again on the same port and data folder; returns its new link. */
  const restart = async (): Promise<string> => {
    const before = app!.url;
    expect(await app!.stop()).toBe(0);
    app = await startApp({ dataDir, port });
    expect(new URL(app.url).origin).toBe(new URL(before).origin);
    expect(app.url).not.toBe(before);
    return app.url;
  };

  /** Opens `url` in the tab as pasting it into the address bar does; it must not reload the page. */
  const pasteLink = async (url: string): Promise<void> => {
    await page.evaluate(() => ((globalThis as unknown as PageGlobals).__sameDocument = true));
    await page.evaluate((u) => ((globalThis as unknown as PageGlobals).location.href = u), url);
    await expect.poll(() => banner().getAttribute('data-link'), SLOW).toBe('connected');
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).__sameDocument)).toBe(true);
    expect(page.url()).not.toContain('token=');
  };

  beforeAll(async () => {
    const t0 = Date.now();
    sb = await startSandbox({ keys: [key], tokenDelayMs: 0, now: () => t0 });
    port = await freePort();
    app = await startApp({ port });
    dataDir = app.dataDir;
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(app.url);

    // The test's sandbox as a connection, made active (kept in the data folder across restarts).
    await useServiceConnection(page, { name: 'Reconnect sandbox', url: sb.url, key });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    const code = await app?.stop();
    await sb?.close();
    if (dataDir) removeDir(dataDir);
    expect(code).toBe(0);
  });

  it('goes stale with its clock stopped while the app is gone; the new link pasted into the tab reconnects it and it catches up', async () => {
    await page.getByRole('link', { name: 'Videos' }).click();
    await page.locator('#video-prompt').fill('a heron waits in the shallows');
    await page.locator('#video-duration').fill('2');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await expect.poll(() => card().getAttribute('data-state'), SLOW).toBe('pending');
    await advanceClock(3);
    await expect.poll(() => card().locator('[role="progressbar"]').first().getAttribute('aria-valuenow').then(Number), SLOW).toBeGreaterThan(0);
    // Its clock ticks while the page is connected.
    const first = await elapsed().innerText();
    await expect.poll(() => elapsed().innerText(), SLOW).not.toBe(first);
    expect(await banner().getAttribute('data-stale')).toBeNull();

    // The app stops: the tab says what it shows may be out of date, and the clock stands still.
    expect(await app!.stop()).toBe(0);
    await expect.poll(() => banner().getAttribute('data-stale'), SLOW).toBe('true');
    expect(await banner().innerText()).toMatch(/may be out of date/);
    await expect.poll(() => elapsed().getAttribute('class'), SLOW).toContain('paused');
    const frozen = await elapsed().innerText();
    await page.waitForTimeout(2_500);
    expect(await elapsed().innerText()).toBe(frozen);
    await screenshot(page, 'reconnect-01-stale');

    // Started again on the same port and data folder, with a new token: the tab's old token is refused.
    app = await startApp({ dataDir, port });
    await expect.poll(() => banner().getAttribute('data-link'), SLOW).toBe('unauthorized');
    expect(await banner().innerText()).toMatch(/Open the link `npm start` printed/);
    expect(await banner().innerText()).toMatch(/may be out of date/);

    // The job finishes while the tab is cut off: a new tab on the new link sees it done, the old one cannot.
    await advanceClock(30);
    const other = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    await other.goto(app.url);
    await other.getByRole('link', { name: 'Videos' }).click();
    await expect.poll(() => other.getByRole('region', { name: 'Video jobs' }).locator('.job-card').first().getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
    await other.close();
    expect(await card().getAttribute('data-state')).toBe('pending');
    expect(await elapsed().innerText()).toBe(frozen);

    // The newly printed link pasted into the same tab: no reload, the token is taken, the tab catches up.
    await pasteLink(app.url);
    await expect.poll(() => card().getAttribute('data-state'), SLOW).toBe('done');
    expect(page.url()).toContain('#/videos');
    expect(await banner().getAttribute('data-stale')).toBeNull();
    expect(await elapsed().getAttribute('class')).not.toContain('paused');
    await screenshot(page, 'reconnect-02-caught-up');

    // F5 now: the stored token is the new one.
    await page.reload();
    await expect.poll(() => banner().getAttribute('data-link'), SLOW).toBe('connected');
    await expect.poll(() => card().getAttribute('data-state'), SLOW).toBe('done');
  });

  it('after another restart, F5 with the stale stored token says to open the new link; opened in that tab, it works', async () => {
    const url = await restart();
    await page.reload();
    await expect.poll(() => banner().getAttribute('data-link'), SLOW).toBe('unauthorized');
    const said = await banner().innerText();
    expect(said).toMatch(/from an earlier start/);
    expect(said).toMatch(/Open the link `npm start` printed/);
    await screenshot(page, 'reconnect-03-f5-stale-token');

    // The views that failed to load while refused load once the new link is opened in the tab.
    await pasteLink(url);
    await expect.poll(() => card().getAttribute('data-state'), SLOW).toBe('done');
    await page.reload();
    await expect.poll(() => banner().getAttribute('data-link'), SLOW).toBe('connected');
  });
});
