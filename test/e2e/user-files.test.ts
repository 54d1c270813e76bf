/**
 * Platform pieces as the real page meets them in Chromium (browser mode): a file's bytes POSTed to
 * /stage under the app's own CSP with the page token, with upload progress, staged byte for byte;
 * an upload the page aborts leaves nothing; the header's Log button shows where the log is.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAppPage, openAppPage, screenshot, type AppPage, type RunningApp } from './harness';

interface PageUpload {
  status: number;
  body: string;
  progress: number[];
}

/** Runs in the page: POSTs `size` bytes (i % 251) made in the page, optionally aborting midway. */
function uploadFromPage(page: Page, size: number, abortAfterFirstProgress: boolean): Promise<PageUpload> {
  return page.evaluate(
    ({ size, abortAfterFirstProgress }) =>
      new Promise<PageUpload>((resolve) => {
        const bytes = new Uint8Array(size);
        for (let i = 0; i < size; i++) bytes[i] = i % 251;
        const file = new File([bytes], 'page made.bin', { type: 'application/octet-stream' });
        const xhr = new XMLHttpRequest();
        const progress: number[] = [];
        xhr.open('POST', '/stage');
        xhr.setRequestHeader('Authorization', `Bearer ${sessionStorage.getItem('workbench.token')}`);
        xhr.setRequestHeader('X-Workbench-File-Name', encodeURIComponent(file.name));
        xhr.upload.onprogress = (e) => {
          progress.push(e.loaded);
          if (abortAfterFirstProgress) xhr.abort();
        };
        xhr.onloadend = () => resolve({ status: xhr.status, body: xhr.responseText, progress });
        xhr.send(file);
      }),
    { size, abortAfterFirstProgress },
  );
}

describe('Files from the user and the log (browser mode)', () => {
  let app: RunningApp;
  let page: Page;
  let opened: AppPage | undefined;

  beforeAll(async () => {
    opened = await openAppPage({ tokenDelayMs: 0, viewport: { width: 1400, height: 900 } });
    ({ app, page } = opened);
    await page.goto(app.url);
    await page.getByRole('button', { name: 'Connections' }).waitFor();
  });

  afterAll(async () => {
    expect(await closeAppPage(opened)).toBe(0);
  });

  it('stages a 24 MB file made in the page, byte for byte, with upload progress', async () => {
    const size = 24 * 1024 * 1024;
    const started = Date.now();
    const result = await uploadFromPage(page, size, false);
    const ms = Date.now() - started;
    expect(result.status, result.body).toBe(200);
    const ref = JSON.parse(result.body) as { ref: string; name: string; size: number; type: string };
    expect(ref).toMatchObject({ name: 'page made.bin', size, type: 'application/octet-stream' });
    expect(result.progress.at(-1)).toBe(size);
    const staged = readdirSync(join(app.dataDir, 'staging')).filter((f) => f.endsWith('.bin'));
    expect(staged).toHaveLength(1);
    const bytes = readFileSync(join(app.dataDir, 'staging', staged[0]));
    expect(bytes.length).toBe(size);
    expect(bytes.every((b, i) => b === i % 251)).toBe(true);
    console.log(`[e2e user-files] 24 MiB page -> /stage in ${ms} ms, ${result.progress.length} progress events`);
  });

  it('keeps nothing of an upload the page aborts', async () => {
    const result = await uploadFromPage(page, 64 * 1024 * 1024, true);
    expect(result.status).toBe(0);
    await expect.poll(() => readdirSync(join(app.dataDir, 'staging')).filter((f) => f.endsWith('.part')), { timeout: 10_000 }).toEqual([]);
    expect(readdirSync(join(app.dataDir, 'staging')).filter((f) => f.endsWith('.bin'))).toHaveLength(1);
  });

  it('shows where the log is from the header’s Log button', async () => {
    await page.getByRole('button', { name: 'Log' }).click();
    const status = page.getByRole('status').filter({ hasText: 'Log file:' });
    await expect.poll(() => status.innerText()).toContain(join(app.dataDir, 'logs', 'workbench.log'));
    await screenshot(page, '70-log-path');
  });
});
