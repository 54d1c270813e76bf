/**
 * A video job waits out a ten-minute outage, as a user meets it in Chromium (browser mode): the
 * video is created against a sandbox of the test's own, reached through a proxy the test stops
 * right after the create; every poll then fails (connection refused) for a simulated ten minutes
 * — the app runs with WORKBENCH_JOB_BACKOFF_SCALE=0.01, so each backoff wait is a hundredth of its
 * length, and the sum of the waits (read from the job's history) is what counts — while the
 * sandbox clock moves ten minutes on, so the video is made meanwhile. The card says the job is
 * waiting and why; once the proxy is back the job completes and the video plays. (Before the fix
 * the job failed for good at its sixth attempt: "could not reach the service, and its retries ran
 * out".)
 */
import { createServer, Socket, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../main/sandbox';
import { closeAppPage, openAppPage, screenshot, useServiceConnection, type AppPage } from './harness';

const SCALE = 0.01;
const OUTAGE_MS = 10 * 60_000;

/** A TCP proxy to `target` on a fixed port that can be stopped (connections refused) and started again. */
interface Proxy {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

async function startProxy(targetPort: number): Promise<Proxy> {
  let server: Server | null = null;
  const sockets = new Set<Socket>();
  let port = 0;
  const listen = async (): Promise<void> => {
    const s = createServer((client) => {
      const upstream = new Socket();
      sockets.add(client).add(upstream);
      const drop = (): void => {
        client.destroy();
        upstream.destroy();
        sockets.delete(client);
        sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      upstream.connect(targetPort, '127.0.0.1', () => {
        client.pipe(upstream);
        upstream.pipe(client);
      });
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
    });
    port = (s.address() as AddressInfo).port;
    server = s;
  };
  const stop = async (): Promise<void> => {
    const s = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  await listen();
  return { url: `http://127.0.0.1:${port}`, stop, start: listen, close: stop };
}

/** What the page code below reads (this file is checked without the DOM library). */
interface PageGlobals {
  document: { querySelector(selector: string): { readyState: number; duration: number } | null };
}

describe('a video job waits out a ten-minute outage (browser mode)', () => {
  let opened: AppPage | undefined;
  let page: Page;
  let sb: SandboxServer;
  let proxy: Proxy;
  const key = 'sk-e2e-outage-000';
  const SLOW = { timeout: 60_000 };

  const advanceClock = async (seconds: number): Promise<void> => {
    // Straight to the sandbox: the proxy may be down.
    const res = await fetch(`${sb.url}/sandbox/clock/advance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ seconds }),
    });
    expect(res.status).toBe(200);
  };

  /** The job's waits so far, unscaled: how long the outage lasted as the app lived it. */
  const waitedMs = (): number => {
    const db = new Database(join(opened!.app.dataDir, 'workbench.db'), { readonly: true, fileMustExist: true });
    try {
      const rows = db.prepare("SELECT e.detail_json AS detail FROM job_events e JOIN jobs j ON j.id = e.job_id WHERE j.kind = 'video' AND e.state = 'retrying'").all() as Array<{ detail: string }>;
      return rows.reduce((sum, row) => sum + (JSON.parse(row.detail) as { delayMs: number }).delayMs / SCALE, 0);
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    // The sandbox clock stands still unless the test moves it.
    const t0 = Date.now();
    sb = await startSandbox({ keys: [key], tokenDelayMs: 0, now: () => t0 });
    proxy = await startProxy(Number(new URL(sb.url).port));
    opened = await openAppPage({ viewport: { width: 1280, height: 900 }, env: { WORKBENCH_JOB_BACKOFF_SCALE: String(SCALE) } });
    page = opened.page;
    await page.goto(opened.app.url);

    // The proxied sandbox as a connection, made active.
    await useServiceConnection(page, { name: 'Far sandbox', url: proxy.url, key });
  }, 180_000);

  afterAll(async () => {
    await proxy?.close();
    await sb?.close();
    expect(await closeAppPage(opened)).toBe(0);
  });

  it('says it waits and why while the service is away, then completes and plays once it is back', async () => {
    await page.getByRole('link', { name: 'Videos' }).click();
    await page.locator('#video-prompt').fill('a lighthouse through a storm');
    await page.locator('#video-duration').fill('1');
    await page.locator('#video-resolution').click();
    await page.getByRole('option', { name: /480p/ }).click();
    await page.getByRole('button', { name: 'Create', exact: true }).click();

    const card = page.getByRole('region', { name: 'Video jobs' }).locator('.job-card').first();
    await expect.poll(() => card.getAttribute('data-state'), SLOW).toBe('pending');

    // The service goes away right after the create: every poll is refused.
    await proxy.stop();
    await expect.poll(() => card.getAttribute('data-state'), SLOW).toBe('waiting');
    await expect.poll(() => card.innerText(), SLOW).toMatch(/Waiting for the service\.[\s\S]*cannot reach the service/);
    // Meanwhile the service makes the video (its clock moves ten minutes on).
    await advanceClock(OUTAGE_MS / 1000);
    await expect.poll(waitedMs, { timeout: 180_000, interval: 500 }).toBeGreaterThanOrEqual(OUTAGE_MS);
    const text = await card.innerText();
    expect(text).toMatch(/\d+ tries failed since/);
    expect(text).toMatch(/next try at|trying again now/);
    expect(await card.getAttribute('data-state')).toBe('waiting');
    expect(await card.getByRole('button', { name: 'Retry now' }).count()).toBe(1);
    expect(await card.getByRole('button', { name: 'Cancel' }).count()).toBe(1);
    await screenshot(page, 'video-outage-01-waiting');

    // Back: the next poll finds it done; it comes into the app and plays.
    await proxy.start();
    await expect.poll(() => card.getAttribute('data-state'), { timeout: 120_000 }).toBe('done');
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as PageGlobals).document.querySelector('.job-video')?.readyState ?? 0), SLOW).toBeGreaterThanOrEqual(2);
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.querySelector('.job-video')!.duration)).toBeCloseTo(1, 0);
    expect(await card.innerText()).not.toMatch(/Waiting for the service/);
    await screenshot(page, 'video-outage-02-done');
  }, 400_000);
});
