/**
 * Platform pieces as the real page meets them in Chromium (browser mode): a file made in the page
 * and dropped onto Files goes to main over the contract (userFiles.upload: binary WebSocket
 * frames; there is no upload route any more), with progress, staged byte for byte and sent on
 * (Cancel while it goes: files.test.ts); a local program holding hundreds of sockets
 * without the token cannot keep the page from loading, connecting and uploading; the header's Log
 * button shows where the log is.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAppPage, openAppPage, screenshot, type AppPage, type RunningApp } from './harness';

/** Drops a File made in the page (`size` bytes of i % 251) onto the Files view. */
async function dropMade(page: Page, name: string, size: number): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ({ name, size }) => {
      const bytes = new Uint8Array(size);
      for (let i = 0; i < size; i++) bytes[i] = i % 251;
      const dt = new (globalThis as any).DataTransfer();
      dt.items.add(new File([bytes], name, { type: 'application/octet-stream' }));
      return dt;
    },
    { name, size },
  );
  for (const type of ['dragenter', 'dragover', 'drop']) await page.dispatchEvent('main', type, { dataTransfer });
  await dataTransfer.dispose();
}

/** Every byte the service stored for `name` is the page's i % 251 pattern. */
function storedOnService(filesDir: string, size: number): Buffer[] {
  return readdirSync(filesDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name)))
    .filter((b) => b.length === size);
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

  it('uploads a 24 MB file made in the page over the contract, with progress, byte for byte, leaving nothing in staging', async () => {
    const size = 24 * 1024 * 1024;
    await page.getByRole('navigation').getByRole('link', { name: 'Files' }).click();
    await page.evaluate(() => {
      const w = globalThis as any;
      const seen: string[] = [];
      w.progressSeen = seen;
      new w.MutationObserver(() => {
        for (const el of w.document.querySelectorAll('.upload-detail')) seen.push(el.textContent ?? '');
      }).observe(w.document.body, { subtree: true, childList: true, characterData: true });
    });
    const started = Date.now();
    await dropMade(page, 'page made.bin', size);
    const upload = page.getByRole('listitem', { name: 'Upload of page made.bin' });
    await expect.poll(() => upload.innerText(), { timeout: 60_000 }).toContain('uploaded');
    const ms = Date.now() - started;
    const seen = (await page.evaluate(() => (globalThis as any).progressSeen)) as string[];
    // Progress while the bytes went to the workbench (step 1 of 2), not only at the end.
    expect(seen.some((line) => /^[\d.]+ (bytes|KiB|MiB) of 24 MiB to the workbench \(step 1 of 2\)/.test(line) && !line.startsWith('24 MiB of'))).toBe(true);
    const stored = storedOnService(join(app.dataDir, 'sandbox'), size);
    expect(stored.length).toBeGreaterThanOrEqual(1);
    expect(stored.some((bytes) => bytes.every((b, i) => b === i % 251))).toBe(true);
    // The staged copy went once the service had it.
    await expect.poll(() => readdirSync(join(app.dataDir, 'staging')), { timeout: 10_000 }).toEqual([]);
    console.log(`[e2e user-files] 24 MiB page -> main -> sandbox in ${ms} ms, ${seen.length} progress lines`);
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
        await tab.getByRole('navigation').getByRole('link', { name: 'Files' }).click();
        // The drop goes to the view on screen: wait for the Files view (its chunk loads beside the
        // 300 sockets' requests; dropped on the view before it, the file went nowhere).
        await tab.getByRole('heading', { level: 1, name: 'Files' }).waitFor();
        await dropMade(tab, 'small.bin', 64 * 1024);
        await expect.poll(() => tab.getByRole('listitem', { name: 'Upload of small.bin' }).innerText(), { timeout: 30_000 }).toContain('uploaded');
        console.log(`[e2e user-files] new tab loaded, connected and uploaded 64 KiB in ${Date.now() - started} ms beside 600 sockets without the token`);
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
