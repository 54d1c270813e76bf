/**
 * Platform pieces as the real page meets them in Chromium (browser mode): a file's bytes POSTed to
 * /stage under the app's own CSP with the page token, with upload progress, staged byte for byte;
 * an upload the page aborts leaves nothing, and its Cancel (DELETE /stage/<id>) removes what was
 * staged too; a local program holding hundreds of sockets without the token cannot keep the page
 * from loading and connecting; the header's Log button shows where the log is.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAppPage, openAppPage, screenshot, type AppPage, type RunningApp } from './harness';

interface PageUpload {
  status: number;
  body: string;
  progress: number[];
}

/** The page's XMLHttpRequest, typed here because this file is compiled without the DOM library. */
interface PageXhr {
  status: number;
  responseText: string;
  upload: { onprogress: ((e: { loaded: number }) => void) | null };
  onloadend: (() => void) | null;
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: unknown): void;
  abort(): void;
}
interface PageGlobals {
  XMLHttpRequest: new () => PageXhr;
  sessionStorage: { getItem(key: string): string | null };
}

/** Runs in the page: POSTs `size` bytes (i % 251) made in the page, optionally aborting midway. */
function uploadFromPage(page: Page, size: number, abortAfterFirstProgress: boolean, uploadId?: string): Promise<PageUpload> {
  return page.evaluate(
    ({ size, abortAfterFirstProgress, uploadId }) =>
      new Promise<PageUpload>((resolve) => {
        const bytes = new Uint8Array(size);
        for (let i = 0; i < size; i++) bytes[i] = i % 251;
        const file = new File([bytes], 'page made.bin', { type: 'application/octet-stream' });
        const { XMLHttpRequest, sessionStorage } = globalThis as unknown as PageGlobals;
        const xhr = new XMLHttpRequest();
        const progress: number[] = [];
        xhr.open('POST', '/stage');
        xhr.setRequestHeader('Authorization', `Bearer ${sessionStorage.getItem('workbench.token')}`);
        xhr.setRequestHeader('X-Workbench-File-Name', encodeURIComponent(file.name));
        if (uploadId) xhr.setRequestHeader('X-Workbench-Upload-Id', uploadId);
        xhr.upload.onprogress = (e) => {
          progress.push(e.loaded);
          if (abortAfterFirstProgress) xhr.abort();
        };
        xhr.onloadend = () => resolve({ status: xhr.status, body: xhr.responseText, progress });
        xhr.send(file);
      }),
    { size, abortAfterFirstProgress, uploadId },
  );
}

/** Runs in the page: the Cancel of upload `id`, as the page's fetch sends it. */
function cancelFromPage(page: Page, id: string): Promise<{ status: number; body: string }> {
  return page.evaluate(async (id) => {
    const { sessionStorage } = globalThis as unknown as PageGlobals;
    const res = await fetch(`/stage/${id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${sessionStorage.getItem('workbench.token')}` } });
    return { status: res.status, body: await res.text() };
  }, id);
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

  it('removes a staged file when the page cancels its upload id after the answer came', async () => {
    const id = 'e2e-cancel-0123456789';
    const stagedBefore = readdirSync(join(app.dataDir, 'staging')).filter((f) => f.endsWith('.bin')).length;
    const result = await uploadFromPage(page, 1024 * 1024, false, id);
    expect(result.status, result.body).toBe(200);
    expect(readdirSync(join(app.dataDir, 'staging')).filter((f) => f.endsWith('.bin'))).toHaveLength(stagedBefore + 1);
    const cancelled = await cancelFromPage(page, id);
    expect(cancelled.status).toBe(200);
    expect(JSON.parse(cancelled.body)).toEqual({ aborted: 0, released: 1 });
    await expect.poll(() => readdirSync(join(app.dataDir, 'staging')).filter((f) => f.endsWith('.bin')).length).toBe(stagedBefore);
  });

  it('loads and connects a new tab while 300 silent and 300 kept-alive sockets without the token are open', async () => {
    const { port } = new URL(app.url);
    const sockets: Socket[] = [];
    const timers: NodeJS.Timeout[] = [];
    const open = (keepAsking: boolean) =>
      new Promise<void>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          const ask = () => socket.writable && socket.write(`GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
          if (keepAsking) {
            ask();
            timers.push(setInterval(ask, 1_000));
          }
          resolve();
        });
        socket.on('error', () => resolve());
        socket.resume();
        sockets.push(socket);
      });
    try {
      for (let i = 0; i < 300; i++) {
        await open(false);
        await open(true);
      }
      const tab = await opened!.browser.newPage({ viewport: { width: 1280, height: 800 } });
      try {
        const started = Date.now();
        await tab.goto(app.url);
        // The header's Connections button appears once the WebSocket answered the first calls.
        await tab.getByRole('button', { name: 'Connections' }).waitFor();
        const upload = await uploadFromPage(tab, 64 * 1024, false);
        expect(upload.status, upload.body).toBe(200);
        console.log(`[e2e user-files] new tab loaded, connected and staged 64 KiB in ${Date.now() - started} ms beside 600 sockets without the token`);
      } finally {
        await tab.close();
      }
    } finally {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
    }
  });

  it('shows where the log is from the header’s Log button', async () => {
    await page.getByRole('button', { name: 'Log' }).click();
    const status = page.getByRole('status').filter({ hasText: 'Log file:' });
    await expect.poll(() => status.innerText()).toContain(join(app.dataDir, 'logs', 'workbench.log'));
    await screenshot(page, '70-log-path');
  });
});
