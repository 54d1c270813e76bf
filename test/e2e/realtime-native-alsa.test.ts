/**
 * A realtime call on native audio from the console, in Chromium against the app in browser mode:
 * the app's media process captures from ALSA's file device (test/audio/asoundrc.template: the
 * capture infile holds an eSpeak NG question, paced to real time and bounded by the
 * WORKBENCH_TEST_AUDIO_INPUT hook, then silence) and plays into its output file. The user picks the
 * system default microphone and speakers in the connect form, starts the call; server VAD hears the
 * question, both transcripts and the latency numbers are shown, the model's answer lands in the
 * ALSA output file, and History keeps the microphone's track. Counts and values only.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIO_INPUT_ENV } from '../../main/media/test-audio-hook';
import { ROOT, screenshot } from './harness';
import { hangUp, openConsole, SLOW, startCall, transcript } from './realtime-helpers';
import { useRealtimeApp } from './realtime-app';

/** Non-silent samples in the ALSA output file (48 kHz stereo PCM16). */
function soundSamples(file: string): number {
  const raw = readFileSync(file);
  const pcm = new Int16Array(raw.buffer, raw.byteOffset, Math.floor(raw.byteLength / 2));
  let n = 0;
  for (const s of pcm) if (s !== 0) n++;
  return n;
}

describe('Realtime call on native audio from the console (ALSA file device, browser mode)', () => {
  const key = 'sk-e2e-realtime-alsa';
  let played = '';
  const rt = useRealtimeApp({
    key,
    name: 'alsa',
    prepare: (home) => {
      played = join(home, 'played.raw');
      const template = readFileSync(join(ROOT, 'test/audio/asoundrc.template'), 'utf8');
      writeFileSync(join(home, '.asoundrc'), template.replaceAll('PLAYBACK_RAW_FILE', played).replaceAll('CAPTURE_RAW_FILE', join(home, 'capture.raw')));
      const wav = join(home, 'speech.wav');
      execFileSync('espeak-ng', ['-v', 'en-us', '-w', wav, 'Hello there. Could you tell me something about the weather today?']);
      execFileSync('sox', [wav, '-r', '48000', '-c', '2', '-b', '16', '-e', 'signed-integer', '-t', 'raw', join(home, 'capture.raw'), 'pad', '0', '2']);
      const speechMs = Math.floor((statSync(join(home, 'capture.raw')).size / (48_000 * 2 * 2)) * 1000);
      writeFileSync(played, new Uint8Array(0));
      // HOME for ALSA's ~/.asoundrc (the media process inherits the app's environment).
      return { HOME: home, [AUDIO_INPUT_ENV]: `${speechMs}:silence` };
    },
  });
  let page: Page;
  beforeAll(() => void (page = rt.page));

  it('the native microphone is heard by server VAD, both transcripts and the latency shown, the answer played into the ALSA file', async () => {
    await openConsole(page);
    const pickers = page.locator('[data-test="connect-form"] select').filter({ has: page.locator('option[value="native:"]') });
    await expect.poll(() => pickers.count(), SLOW).toBe(2);
    await pickers.nth(0).selectOption('native:');
    await pickers.nth(1).selectOption('native:');
    expect(await pickers.nth(0).locator('option:checked').innerText()).toMatch(/^System default microphone/);
    expect(await pickers.nth(1).locator('option:checked').innerText()).toMatch(/^System default speakers/);
    await startCall(page);

    const user = () => transcript(page, 'user');
    await expect.poll(user, SLOW).toHaveLength(1);
    expect((await user())[0].split(/\s+/).length).toBeGreaterThan(1);
    await expect.poll(() => transcript(page, 'assistant'), SLOW).toHaveLength(1);
    expect((await transcript(page, 'assistant'))[0].length).toBeGreaterThan(10);
    await expect.poll(() => page.locator('[data-test="turn-first-audio"] b').first().innerText(), SLOW).toMatch(/^\d+(\.\d+)? (ms|s)$/);
    await expect.poll(() => page.locator('[data-test="turn-first-played"] b').first().innerText(), SLOW).toMatch(/^\d+(\.\d+)? (ms|s)$/);
    // The answer was played natively: the ALSA output file has sound (at least half a second of it).
    await expect.poll(() => soundSamples(played) / 2 / 48, SLOW).toBeGreaterThan(500);
    await screenshot(page, 'realtime-alsa-01-call');
    await hangUp(page);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History', exact: true }).click();
    const row = page.getByRole('row').filter({ hasText: 'Realtime · call' }).first();
    await row.waitFor(SLOW);
    expect(await row.innerText()).toContain('microphone native');
    await row.getByRole('link').first().click();
    const audio = page.getByRole('region', { name: 'Audio' });
    await expect.poll(() => audio.locator('[data-direction="out"]').innerText().catch(() => ''), SLOW).toContain('microphone');
    await screenshot(page, 'realtime-alsa-02-history');
  });
});
