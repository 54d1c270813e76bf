/**
 * Voices, end to end in Chromium (browser mode) against the built-in sandbox: an espeak-ng WAV
 * dropped on another view is offered "Clone a voice" by the drop router, opens Voices with the
 * clip, is cloned and listed; a preview of speech in the new voice loads and plays in the page's
 * audio element; the clone is a run in History.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAppPage, openAppPage, screenshot, type AppPage } from './harness';

describe('Voices (browser mode)', () => {
  let opened: AppPage | undefined;
  let page: Page;
  let clip: number[];
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wb-e2e-voices-'));
    execFileSync('espeak-ng', ['-v', 'en+m3', '-w', join(dir, 'my-voice.wav'), 'This is my reference recording for a cloned voice.']);
    clip = [...readFileSync(join(dir, 'my-voice.wav'))];
    opened = await openAppPage({ viewport: { width: 1400, height: 1000 } });
    page = opened.page;
  });

  afterAll(async () => {
    await closeAppPage(opened);
    rmSync(dir, { recursive: true, force: true });
  });

  it('clones a voice from a dropped clip, lists it, and plays a preview in it', async () => {
    await page.goto(opened!.app.url);
    await page.locator('main').waitFor();
    const dataTransfer = await page.evaluateHandle((bytes) => {
      const dt = new (globalThis as any).DataTransfer();
      dt.items.add(new File([new Uint8Array(bytes)], 'my-voice.wav', { type: 'audio/wav' }));
      return dt;
    }, clip);
    await page.dispatchEvent('main', 'dragover', { dataTransfer });
    await page.dispatchEvent('main', 'drop', { dataTransfer });
    await page.getByRole('group', { name: 'Actions for the dropped files' }).getByRole('button', { name: 'Clone a voice' }).click();

    const panel = page.getByRole('region', { name: 'Clone a voice' });
    await expect.poll(() => panel.getByLabel('Clip').textContent(), { timeout: 20_000 }).toContain('my-voice.wav');
    await panel.getByLabel('Name', { exact: true }).fill('E2E Narrator');
    await panel.getByLabel('Gender').selectOption('male');
    await panel.getByLabel('Use case').selectOption('narration');
    await panel.getByRole('button', { name: 'Clone voice' }).click();
    // The panel has a second status (the microphone picker's note): read the one that says Cloned.
    await expect.poll(() => panel.getByRole('status').filter({ hasText: 'Cloned' }).textContent(), { timeout: 30_000 }).toMatch(/Cloned "E2E Narrator" \([a-z0-9]{8}\)/);

    const row = page.getByRole('region', { name: 'Custom voices' }).getByRole('row').filter({ hasText: 'E2E Narrator' });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('narration');
    await screenshot(page, 'voices-01-cloned');

    await page.getByLabel('Preview text').fill('Hello from my cloned voice.');
    await row.getByRole('button', { name: 'Preview' }).click();
    const audio = page.locator('audio.player');
    await expect.poll(() => audio.getAttribute('aria-label'), { timeout: 30_000 }).toMatch(/^Playing preview of [a-z0-9]{8}$/);
    // The WAV loaded (a duration) and played (time moved) in the page.
    await expect.poll(() => audio.evaluate((a: any) => (Number.isFinite(a.duration) ? a.duration : 0)), { timeout: 20_000 }).toBeGreaterThan(0.5);
    await expect.poll(() => audio.evaluate((a: any) => a.currentTime), { timeout: 20_000 }).toBeGreaterThan(0);

    await row.getByRole('button', { name: 'Play reference' }).click();
    await expect.poll(() => audio.getAttribute('aria-label'), { timeout: 20_000 }).toMatch(/^Playing clip of [a-z0-9]{8}$/);
    await expect.poll(() => audio.evaluate((a: any) => (Number.isFinite(a.duration) ? a.duration : 0)), { timeout: 20_000 }).toBeGreaterThan(1);

    // The clone is a run in History.
    await page.getByRole('link', { name: 'History' }).click();
    await expect.poll(() => page.getByText('Voices · clone').count(), { timeout: 20_000 }).toBeGreaterThan(0);
  }, 180_000);
});
