/**
 * Transcription as a user meets it, in Chromium against the app in browser mode and a sandbox of
 * the test's own: drop a WAV of two eSpeak NG voices (its CLI) (low and high, a pause between) on the
 * Transcription view and see its words, two speakers coloured apart, and the kept audio playable;
 * then find the run in History, playing the same audio with the same words.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../main/sandbox';
import { encodeWav, parseWav } from '../../shared/audio/wav';
import { closeAppPage, openAppPage, screenshot, useServiceConnection, type AppPage } from './harness';

/** eSpeak NG's CLI (a test-only tool), 22.05 kHz mono. */
async function speak(text: string, pitch: number): Promise<Int16Array> {
  const out = join(tmpdir(), `wb-stt-${process.pid}-${pitch}.wav`);
  execFileSync('espeak-ng', ['-v', 'en-us', '-p', String(pitch), '-w', out, text]);
  const parsed = parseWav(readFileSync(out));
  rmSync(out, { force: true });
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value.samples;
}

/** The waveform player's clock, "m:ss.s / m:ss.s", as [position, length] in seconds. */
function clockOf(text: string): [number, number] {
  const m = /(\d+):(\d+\.\d) \/ (\d+):(\d+\.\d)/.exec(text);
  if (!m) throw new Error(`no clock in ${JSON.stringify(text)}`);
  return [Number(m[1]) * 60 + Number(m[2]), Number(m[3]) * 60 + Number(m[4])];
}

describe('Transcription (browser mode)', () => {
  let opened: AppPage | undefined;
  let page: Page;
  let sb: SandboxServer;
  const key = 'sk-e2e-transcription-0';
  const SLOW = { timeout: 30_000 };
  let wav: Buffer;
  let seconds: number;

  beforeAll(async () => {
    sb = await startSandbox({ keys: [key], tokenDelayMs: 0 });
    const low = await speak('The quick brown fox jumps over the lazy dog near the river bank.', 10);
    const high = await speak('Seven silver spoons were found beneath the old wooden table.', 95);
    const samples = new Int16Array(low.length + 22050 + high.length);
    samples.set(low, 0);
    samples.set(high, low.length + 22050);
    seconds = samples.length / 22050;
    wav = Buffer.from(encodeWav({ sampleRate: 22050, channels: 1, samples }));
    opened = await openAppPage({ viewport: { width: 1400, height: 1000 } });
    page = opened.page;
    await page.goto(opened.app.url);
    await useServiceConnection(page, { name: 'STT sandbox', url: sb.url, key });
  }, 180_000);

  afterAll(async () => {
    await sb?.close();
    expect(await closeAppPage(opened)).toBe(0);
  });

  it('a dropped WAV gives words and two speakers, and its audio plays', async () => {
    await page.getByRole('link', { name: 'Transcription' }).click();
    await page.locator('[data-testid="drop-zone"]').waitFor();
    await page.evaluate(`(() => {
      const bytes = Uint8Array.from(atob(${JSON.stringify(wav.toString('base64'))}), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'two-voices.wav', { type: 'audio/wav' }));
      const target = document.querySelector('[data-testid="drop-zone"]');
      for (const type of ['dragenter', 'dragover', 'drop']) target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }));
    })()`);
    const result = page.locator('[data-testid="result"]');
    await expect.poll(() => result.locator('[data-testid="word"]').count(), SLOW).toBeGreaterThan(5);
    await expect.poll(() => page.locator('[data-testid="speakers"]').textContent(), SLOW).toBe('Speaker 1Speaker 2');
    expect(await result.locator('.segment.speaker-0').count()).toBeGreaterThan(0);
    expect(await result.locator('.segment.speaker-1').count()).toBeGreaterThan(0);
    expect(await result.textContent()).toContain('two-voices.wav');
    // The audio kept in the gallery loads in the waveform player with the recording's length.
    const player = result.locator('.waveform-player');
    await expect.poll(async () => clockOf(await player.locator('.wf-clock').innerText())[1], SLOW).toBeGreaterThan(0);
    expect(Math.abs(clockOf(await player.locator('.wf-clock').innerText())[1] - seconds)).toBeLessThanOrEqual(0.1);
    // Clicking a word seeks the player to it, and that word is the one lit.
    const target = result.locator('[data-testid="word"]').last();
    const start = Number(/^([\d.]+)/.exec((await target.getAttribute('title')) ?? '')![1]);
    await target.click();
    await expect.poll(async () => clockOf(await player.locator('.wf-clock').innerText())[0], SLOW).toBeCloseTo(start, 0);
    await expect.poll(() => result.locator('.word.lit').allTextContents(), SLOW).toEqual([await target.textContent()]);
    await screenshot(page, 'transcription-01-two-voices');

    // History: the run's entry plays the kept audio and shows the same words.
    const words = await result.locator('[data-testid="word"]').allTextContents();
    await page.getByRole('navigation').getByRole('link', { name: 'History' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Transcription · two-voices.wav' }).first();
    await expect.poll(() => row.isVisible(), SLOW).toBe(true);
    await row.getByRole('link').click();
    const entry = page.getByRole('region', { name: 'Transcript of this run' });
    await expect.poll(() => entry.locator('[data-testid="word"]').allTextContents(), SLOW).toEqual(words);
    expect(await page.locator('h1').innerText()).toBe('Transcription · two-voices.wav');
    await expect.poll(async () => clockOf(await entry.locator('.waveform-player .wf-clock').innerText())[1], SLOW).toBeGreaterThan(0);
    await screenshot(page, 'transcription-02-history-entry');
  });
});
