/**
 * Push-to-talk on a realtime call as a user meets it, in Chromium against the app in browser mode
 * and a sandbox of the test's own. Chromium's fake microphone speaks an eSpeak NG question over and
 * over (a short pause between); turn detection is off (push-to-talk) and the user's audio is not
 * transcribed, so the sandbox's answer says how much audio the turn committed ("I heard N seconds").
 * While nobody holds the button the speech makes no turn (no commit, no answer); holding the button
 * for a while and letting go makes one user turn and one answer, and the answer heard only the held
 * part (not the talk before the press); then the same with the Space key held. The app's socket
 * to the sandbox goes through a TCP proxy that reads what it sends: not one `input_audio_buffer.append`
 * leaves the app while the button is not held.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './harness';
import { logRows, openConsole, SLOW, speechWav, startCall, transcript } from './realtime-helpers';
import { useRealtimeApp } from './realtime-app';

/** The user talks this long before first pressing the button (the audio the press must drop). */
const TALK_BEFORE_MS = 7_000;
/** How long the button (then the key) is held. */
const HOLD_MS = 3_000;
/** A button's label following a press (the page under load). */
const QUICK = { timeout: 10_000 };

/** Seconds of audio an answer says it heard. */
function heardSeconds(answer: string): number {
  const m = /I heard (\d+(?:\.\d+)?) seconds of your audio/.exec(answer);
  if (!m) throw new Error(`no "I heard N seconds" in ${JSON.stringify(answer)}`);
  return Number(m[1]);
}

describe('Realtime call: push-to-talk (browser mode)', () => {
  const key = 'sk-e2e-realtime-ptt';
  const rt = useRealtimeApp({ key, name: 'ptt', mic: (dir) => speechWav(dir, 'What is the weather like in Paris today?', 0.7), proxy: true });
  let page: Page;
  beforeAll(() => void (page = rt.page));

  /** Sent and received rows of the turn-taking kind, for counting. */
  const count = (rows: string[], row: string): number => rows.filter((r) => r === row || r.startsWith(`${row} ×`)).length;
  /**
   * The appends the app sent (read on the wire), split by whether the button was held: between a
   * `clear` (the press) and the next `commit` (the release), or not.
   */
  const appends = (): { held: number; notHeld: number } => {
    let held = false;
    const out = { held: 0, notHeld: 0 };
    for (const m of rt.proxy.sent.messages) {
      if (m.type === 'input_audio_buffer.clear') held = true;
      else if (m.type === 'input_audio_buffer.commit') held = false;
      else if (m.type === 'input_audio_buffer.append') out[held ? 'held' : 'notHeld']++;
    }
    return out;
  };
  const turnRows = async (): Promise<string[]> => [...(await logRows(page, 'input_audio_buffer')), ...(await logRows(page, 'response.done'))];

  it('talk while not holding makes no turn; holding the button makes one turn and one answer that heard only the held part', async () => {
    await openConsole(page);
    await page.locator('[data-test="turn-ptt"]').check();
    await page.locator('[data-test="transcribe-input"]').uncheck();
    await startCall(page);
    expect(await page.locator('[data-test="call-bar"]').innerText()).toContain('push-to-talk');
    const button = page.locator('[data-test="call-ptt"]');
    expect(await button.innerText()).toBe('Hold to talk (or Space)');

    // The microphone is live (its level moves with the speech), yet nothing is committed or answered.
    await expect.poll(() => page.getByRole('meter', { name: 'Microphone level' }).getAttribute('aria-valuenow').then(Number), SLOW).toBeGreaterThan(-40);
    await page.waitForTimeout(TALK_BEFORE_MS);
    const before = await turnRows();
    expect(count(before, '→ input_audio_buffer.commit')).toBe(0);
    expect(count(before, '← input_audio_buffer.committed')).toBe(0);
    expect(count(before, '← response.done')).toBe(0);
    expect(await transcript(page, 'assistant')).toEqual([]);
    // Not one append left the app while the microphone talked unheld (yet the socket is up: session.update went).
    expect(rt.proxy.sent.count('session.update')).toBe(1);
    expect(appends()).toEqual({ held: 0, notHeld: 0 });

    // Hold the button while the microphone speaks, then let go.
    await button.hover();
    await page.mouse.down();
    await expect.poll(() => button.innerText(), QUICK).toBe('Talking… (release to send)');
    await page.waitForTimeout(HOLD_MS);
    await page.mouse.up();
    await expect.poll(() => button.innerText(), QUICK).toBe('Hold to talk (or Space)');

    await expect.poll(() => transcript(page, 'assistant'), SLOW).toHaveLength(1);
    await expect.poll(async () => count(await logRows(page, 'response.done'), '← response.done'), SLOW).toBe(1);
    const rows = await turnRows();
    expect(count(rows, '→ input_audio_buffer.clear')).toBe(1);
    expect(count(rows, '→ input_audio_buffer.commit')).toBe(1);
    expect(count(rows, '← input_audio_buffer.committed')).toBe(1);
    // On the wire: appends while held (about one per 20 ms of it), none outside, even after the release.
    await page.waitForTimeout(1_000);
    const first = appends();
    expect(first.notHeld).toBe(0);
    expect(first.held).toBeGreaterThan(HOLD_MS / 20 / 2);
    // The answer heard the held part: some speech, and far less than the talk before the press.
    const heard = heardSeconds((await transcript(page, 'assistant'))[0]);
    expect(heard).toBeGreaterThan(0.5);
    expect(heard * 1000).toBeLessThan(TALK_BEFORE_MS);
    await page.locator('[data-test="log-filter-text"]').fill('');
    await screenshot(page, 'realtime-ptt-01-button');
  });

  it('holding Space (focus outside a field) is the same: a second turn and a second answer', async () => {
    await page.getByRole('heading', { level: 1, name: 'Realtime call console' }).click();
    await page.keyboard.down('Space');
    await expect.poll(() => page.locator('[data-test="call-ptt"]').innerText(), QUICK).toBe('Talking… (release to send)');
    await page.waitForTimeout(HOLD_MS);
    await page.keyboard.up('Space');
    await expect.poll(() => page.locator('[data-test="call-ptt"]').innerText(), QUICK).toBe('Hold to talk (or Space)');

    await expect.poll(() => transcript(page, 'assistant'), SLOW).toHaveLength(2);
    await expect.poll(async () => count(await logRows(page, 'response.done'), '← response.done'), SLOW).toBe(2);
    const rows = await turnRows();
    expect(count(rows, '→ input_audio_buffer.clear')).toBe(2);
    expect(count(rows, '→ input_audio_buffer.commit')).toBe(2);
    expect(count(rows, '← input_audio_buffer.committed')).toBe(2);
    await page.waitForTimeout(1_000);
    expect(appends().notHeld).toBe(0);
    const heard = heardSeconds((await transcript(page, 'assistant'))[1]);
    expect(heard).toBeGreaterThan(0.5);
    expect(heard * 1000).toBeLessThan(TALK_BEFORE_MS);
    // Space typed in the message field types a space: no third turn.
    await page.locator('[data-test="call-text"]').press('Space');
    expect(await page.locator('[data-test="call-text"]').inputValue()).toBe(' ');
    expect(await page.locator('[data-test="call-ptt"]').innerText()).toBe('Hold to talk (or Space)');
    await page.locator('[data-test="log-filter-text"]').fill('');
    await screenshot(page, 'realtime-ptt-02-space');
    await page.locator('[data-test="call-hangup"]').click();
    await expect.poll(() => page.locator('[data-test="call-start"]').isVisible(), SLOW).toBe(true);
  });
});
