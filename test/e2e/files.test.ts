/**
 * Files, end to end in Chromium (browser mode): drop two files onto the Files view (a real drop
 * event carrying a DataTransfer made in the page), watch them upload, filter by name and size with
 * the builder, see a filter that does not parse pointed at, download one and compare its bytes,
 * delete one. The files live on a standalone sandbox the test runs and adds as a connection; at
 * the end that service is stopped for good and the app restarted on the same data: both uploads
 * are still found in History and in the Files view's local record, while the service's list says
 * it cannot be reached.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../main/sandbox';
import { closeAppPage, launchBrowser, openAppPage, removeDir, screenshot, startApp, type AppPage } from './harness';

const BIG = { name: 'report-2026.bin', size: 24 * 1024 * 1024 };
const SMALL = { name: 'notes.txt', text: 'herons wade in the shallows\n' };
const SERVICE_KEY = 'sk-e2e-files-service-0001';
const QUOTED = { name: 'résumé "final".txt', text: 'a name with quotes and accents\n' };
const SLOW = { name: 'throttled-30mb.bin', size: 30_000_000 };

/** The big file's bytes: the same formula builds them in the page and here. */
function bigBytes(): Buffer {
  const out = Buffer.alloc(BIG.size);
  for (let i = 0; i < BIG.size; i++) out[i] = (i * 31 + 7) & 255;
  return out;
}

describe('Files (browser mode)', () => {
  let opened: AppPage | undefined;
  let page: Page;
  let dataDir: string;
  let service: SandboxServer | undefined;

  beforeAll(async () => {
    service = await startSandbox({ keys: [SERVICE_KEY], tokenDelayMs: 0 });
    opened = await openAppPage({ viewport: { width: 1400, height: 1000 } });
    page = opened.page;
    dataDir = opened.app.dataDir;
  });

  afterAll(async () => {
    await closeAppPage(opened, { keepData: true });
    if (dataDir) removeDir(dataDir);
    await service?.close();
  });

  const table = () => page.locator('.file-table');
  const rowOf = (name: string) => table().getByRole('row').filter({ hasText: name });

  it('uploads two files dropped onto the page, with progress while they go', async () => {
    await page.goto(opened!.app.url);
    // The files go to a service of their own (a standalone sandbox), added as a connection.
    await page.getByRole('button', { name: 'Connections' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connections' });
    await dialog.getByRole('button', { name: 'Add connection' }).click();
    await dialog.getByLabel('Name').fill('Files service');
    await dialog.getByLabel('Base URL').fill(service!.url);
    await dialog.getByLabel('API key').fill(SERVICE_KEY);
    await dialog.getByRole('button', { name: 'Add connection' }).click();
    await expect.poll(() => dialog.getByText('Files service').count()).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await page.getByRole('combobox', { name: 'Connection' }).click();
    await page.getByRole('option', { name: 'Files service' }).click();
    await expect.poll(() => page.getByRole('combobox', { name: 'Connection' }).innerText()).toContain('Files service');
    await page.getByRole('navigation').getByRole('link', { name: 'Files' }).click();
    await expect.poll(() => page.getByText('Drop files anywhere on this page').first().isVisible()).toBe(true);
    // Record every progress line the queue shows, however briefly.
    // These callbacks run in the page; this file is type-checked for Node, hence `globalThis`.
    await page.evaluate(() => {
      const w = globalThis as any;
      const seen: string[] = [];
      w.progressSeen = seen;
      new w.MutationObserver(() => {
        for (const el of w.document.querySelectorAll('.upload-detail')) seen.push(el.textContent ?? '');
      }).observe(w.document.body, { subtree: true, childList: true, characterData: true });
    });
    const dataTransfer = await page.evaluateHandle(
      ({ big, small }) => {
        const bytes = new Uint8Array(big.size);
        for (let i = 0; i < big.size; i++) bytes[i] = (i * 31 + 7) & 255;
        const dt = new (globalThis as any).DataTransfer();
        dt.items.add(new File([bytes], big.name, { type: 'application/octet-stream' }));
        dt.items.add(new File([small.text], small.name, { type: 'text/plain' }));
        return dt;
      },
      { big: BIG, small: SMALL },
    );
    await page.dispatchEvent('main', 'dragenter', { dataTransfer });
    await page.dispatchEvent('main', 'dragover', { dataTransfer });
    await page.dispatchEvent('main', 'drop', { dataTransfer });

    const queue = page.getByRole('region', { name: 'Uploads' });
    await expect.poll(() => queue.isVisible(), { timeout: 10_000 }).toBe(true);
    await screenshot(page, 'files-01-uploading');
    await expect.poll(() => queue.getByText('uploaded', { exact: true }).count(), { timeout: 60_000 }).toBe(2);
    const seen = await page.evaluate(() => (globalThis as any).progressSeen as string[]);
    expect(seen.some((line) => /^\d.* of 24 MiB/.test(line) && !line.startsWith('24 MiB of'))).toBe(true);

    await expect.poll(() => rowOf(BIG.name).count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => rowOf(SMALL.name).count()).toBe(1);
    expect(await rowOf(BIG.name).innerText()).toContain('24 MiB');
    await screenshot(page, 'files-02-uploaded');
  });

  it('filters by name and size with the builder, and points at a filter that does not parse', async () => {
    const builder = page.getByRole('group', { name: 'Filter builder' });
    await builder.getByLabel('Value 1').fill('REPORT');
    await builder.getByRole('button', { name: '+ Add condition' }).click();
    await builder.getByLabel('Value 2').fill('1000000');
    await builder.getByRole('button', { name: 'Use filter' }).click();
    await expect.poll(() => page.getByLabel('Filter (AIP-160)').inputValue()).toBe('name:REPORT AND size_bytes > 1000000');
    await expect.poll(() => table().getByRole('row').count(), { timeout: 10_000 }).toBe(2);
    expect(await rowOf(BIG.name).count()).toBe(1);
    await screenshot(page, 'files-03-filtered');

    const raw = page.getByLabel('Filter (AIP-160)');
    await raw.fill('name:REPORT AND AND size_bytes > 10');
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Column 17' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Apply' }).isDisabled()).toBe(true);
    // The caret counts columns in characters: it lines up only if the box is in the caret's monospace font.
    const fontOf = (selector: string) => page.locator(selector).evaluate((el) => (globalThis as any).getComputedStyle(el).fontFamily as string);
    expect(await fontOf('#files-filter-text')).toBe(await fontOf('.filter-text .caret'));
    await screenshot(page, 'files-04-filter-error');
  });

  it('downloads a file through the browser, byte for byte', async () => {
    const downloadEvent = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByRole('button', { name: `Download ${BIG.name}` }).click();
    const download = await downloadEvent;
    expect(download.suggestedFilename()).toBe(BIG.name);
    const path = await download.path();
    expect(readFileSync(path).equals(bigBytes())).toBe(true);
  });

  it('deletes a file after confirmation; it leaves the service list', async () => {
    const raw = page.getByLabel('Filter (AIP-160)');
    await raw.fill('');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => rowOf(SMALL.name).count(), { timeout: 10_000 }).toBe(1);
    await page.getByRole('button', { name: `Delete ${SMALL.name}` }).click();
    const dialog = page.getByRole('alertdialog');
    await expect.poll(() => dialog.innerText()).toContain(`Delete "${SMALL.name}"`);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    // "On the service" shows what the service holds: the deleted file leaves it at once.
    await expect.poll(() => rowOf(SMALL.name).count(), { timeout: 10_000 }).toBe(0);
    await screenshot(page, 'files-05-deleted');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => rowOf(SMALL.name).count(), { timeout: 10_000 }).toBe(0);
    expect(await rowOf(BIG.name).count()).toBe(1);
  });

  /** Drops files made in the page (name and text) onto the Files view. */
  async function dropFiles(files: { name: string; text?: string; size?: number }[]): Promise<void> {
    const dataTransfer = await page.evaluateHandle((list) => {
      const dt = new (globalThis as any).DataTransfer();
      for (const f of list) dt.items.add(new File([f.text ?? new Uint8Array(f.size ?? 0)], f.name, { type: f.text ? 'text/plain' : 'application/octet-stream' }));
      return dt;
    }, files);
    await page.dispatchEvent('main', 'dragenter', { dataTransfer });
    await page.dispatchEvent('main', 'dragover', { dataTransfer });
    await page.dispatchEvent('main', 'drop', { dataTransfer });
  }

  // Passes once the sandbox decodes %22 in multipart filenames (issue 14 item 3, the sandbox side):
  // until then the sandbox stores and lists the name as `résumé %22final%22.txt`.
  it('uploads a quoted, accented name and gives it back as given: listed, in History, downloaded', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Files' }).click();
    await page.getByRole('button', { name: 'Clear finished' }).click();
    await dropFiles([{ name: QUOTED.name, text: QUOTED.text }]);
    const queue = page.getByRole('region', { name: 'Uploads' });
    await expect.poll(() => queue.getByText('uploaded', { exact: true }).count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => table().locator('.filename').allInnerTexts(), { timeout: 10_000 }).toContain(QUOTED.name);
    const downloadEvent = page.waitForEvent('download', { timeout: 30_000 });
    await page.getByRole('button', { name: `Download ${QUOTED.name}` }).click();
    const download = await downloadEvent;
    // The link names the file exactly (filename*, RFC 6266: test/unit/main/host/download-route.test.ts);
    // Chromium saves it under that name made legal on every system: it turns `"` into `_` itself
    // (net::GenerateFileName), whatever the header says.
    expect(download.suggestedFilename()).toBe(QUOTED.name.replace(/"/g, '_'));
    expect(readFileSync(await download.path()).toString('utf8')).toBe(QUOTED.text);

    await page.getByRole('navigation').getByRole('link', { name: 'History' }).click();
    await page.getByRole('textbox', { name: 'Search history' }).fill('final');
    const row = page.getByRole('row').filter({ hasText: 'Files · upload' }).first();
    await expect.poll(() => row.innerText(), { timeout: 10_000 }).toContain(QUOTED.name);
    await row.getByRole('link').click();
    const file = page.getByRole('region', { name: 'Uploaded file' });
    await expect.poll(() => file.innerText(), { timeout: 10_000 }).toContain(QUOTED.name);
    expect(await file.innerText()).not.toContain('%22');
  });

  it('cancels a throttled upload while the page stages it: nothing on the service, nothing in staging, the run cancelled', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Files' }).click();
    await page.getByRole('button', { name: 'Clear finished' }).click().catch(() => undefined);
    // The page's link to the workbench at 3 MB/s, as in the issue: 30 MB take about 10 s to stage.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 5, downloadThroughput: -1, uploadThroughput: 3 * 1000 * 1000 });
    try {
      await dropFiles([{ name: SLOW.name, size: SLOW.size }]);
      const upload = page.getByRole('listitem', { name: `Upload of ${SLOW.name}` });
      // One upload from the first byte: progress with speed and time left, and Cancel, while staging.
      await expect.poll(() => upload.locator('.upload-detail').innerText(), { timeout: 15_000 }).toMatch(/^[\d.]+ (bytes|KiB|MiB) of 28\.6 MiB to the workbench \(step 1 of 2\) · [\d.]+ (KiB|MiB)\/s · .+ left$/);
      expect(await upload.locator('.percent').innerText()).toMatch(/^\d+%$/);
      await screenshot(page, 'files-06-staging');
      await upload.getByRole('button', { name: `Cancel the upload of ${SLOW.name}` }).click();
      await expect.poll(() => upload.innerText(), { timeout: 10_000 }).toContain('cancelled');
      expect(await upload.innerText()).toContain('nothing was sent to the service');
    } finally {
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await cdp.detach();
    }
    // Nothing left in staging: the aborted POST's partial file and any staged copy are gone.
    const staging = join(dataDir, 'staging');
    await expect.poll(() => readdirSync(staging), { timeout: 10_000 }).toEqual([]);
    // Nothing on the service.
    const listed = (await (await fetch(`${service!.url}/v1/files?limit=100`, { headers: { authorization: `Bearer ${SERVICE_KEY}` } })).json()) as { data: { filename: string }[] };
    expect(listed.data.map((f) => f.filename)).not.toContain(SLOW.name);
    // The run is in History, cancelled.
    await page.getByRole('navigation').getByRole('link', { name: 'History' }).click();
    await page.getByRole('textbox', { name: 'Search history' }).fill('throttled');
    const row = page.getByRole('row').filter({ hasText: SLOW.name });
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    expect((await row.innerText()).toLowerCase()).toContain('cancelled');
    await page.getByRole('textbox', { name: 'Search history' }).fill('');
  });

  it('after the service stops for good, History still has both uploads, searchable, with their files', async () => {
    // The service that held the files is stopped; the app restarts on the same data.
    await service!.close();
    service = undefined;
    await opened!.browser.close();
    expect(await opened!.app.stop()).toBe(0);
    const app = await startApp({ dataDir });
    const browser = await launchBrowser();
    opened = { app, browser, page: await browser.newPage({ viewport: { width: 1400, height: 1000 } }) };
    page = opened.page;
    await page.goto(app.url);
    await page.getByRole('navigation').getByRole('link', { name: 'History' }).click();
    await page.getByRole('textbox', { name: 'Search history' }).fill('notes');
    const rows = page.getByRole('row').filter({ hasText: SMALL.name });
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
    expect(await rows.first().innerText()).toContain('Files · upload');
    await page.getByRole('textbox', { name: 'Search history' }).fill('');
    // The two uploads, the quoted name, and the upload cancelled while staging.
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Files · upload' }).count(), { timeout: 10_000 }).toBe(4);
    await screenshot(page, 'files-07-history');

    await page.getByRole('row').filter({ hasText: SMALL.name }).getByRole('link').click();
    const file = page.getByRole('region', { name: 'Uploaded file' });
    await expect.poll(() => file.innerText(), { timeout: 10_000 }).toContain('Deleted from the service');
    expect(await page.getByText('Upload sent').isVisible()).toBe(true);
    await page.getByRole('tab', { name: 'Code' }).click();
    await screenshot(page, 'files-07-history-entry');

    // The Files view's local record still lists both, offline, with what became of each.
    await page.getByRole('navigation').getByRole('link', { name: 'Files' }).click();
    await expect.poll(() => page.getByText('Could not list the files').isVisible(), { timeout: 15_000 }).toBe(true);
    await page.getByRole('radio', { name: 'Recorded here (offline)' }).or(page.getByRole('button', { name: 'Recorded here (offline)' })).first().click();
    await expect.poll(() => rowOf(SMALL.name).innerText(), { timeout: 10_000 }).toContain('deleted');
    expect(await rowOf(BIG.name).innerText()).toContain('24 MiB');
    await page.getByRole('textbox', { name: 'Search the local record' }).fill('report');
    await expect.poll(() => rowOf(SMALL.name).count()).toBe(0);
    expect(await rowOf(BIG.name).count()).toBe(1);
    await screenshot(page, 'files-08-local-record');
  });
});
