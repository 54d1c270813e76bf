/**
 * The realtime call console as a user meets it, in Chromium against the app in browser mode and a
 * sandbox of the test's own: Chromium's fake microphone plays an eSpeak NG question (its CLI) with
 * silence after it, looped; start a call with server VAD, the page's microphone and speakers; the
 * user's words (the sandbox's synthetic transcription of them) and the model's spoken answer both appear in the transcript, final, and the
 * latency numbers (end of speech → first audio byte, → first sample played) are shown; the event
 * log has folded deltas and our own messages (session.update, sent); hang up, and the call is in History.
 *
 * Runs once the `realtime` live kind is in main (main/live/realtime.ts); skipped before.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, screenshot } from './harness';
import { speechWav } from './realtime-helpers';
import { useRealtimeApp } from './realtime-app';

const KIND_PRESENT = existsSync(join(ROOT, 'main/live/realtime.ts'));
const SLOW = { timeout: 60_000 };

describe.skipIf(!KIND_PRESENT)('Realtime call console (browser mode)', () => {
  const key = 'sk-e2e-realtime-0';
  const rt = useRealtimeApp({ key, name: 'e2e', mic: (dir) => speechWav(dir, 'What is the weather like in Paris today?', 6) });
  let page: Page;
  beforeAll(() => void (page = rt.page));

  it('starts a call, hears the question, answers it aloud; both transcripts and the latency numbers shown', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Realtime', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Realtime call console' }).waitFor();
    // Instructions ending in `s`, which could start the key (sk-…): the captured-frame log once held
    // such a session.update until the socket closed, so it never reached the log.
    await page.locator('[data-test="rt-instructions"]').fill('Answer questions about the weather in a few words');
    await page.locator('[data-test="call-start"]').click();
    await expect.poll(() => page.locator('[data-test="call-status"]').textContent(), SLOW).toBe('Live');

    // The user's words, transcribed, and the model's answer, each final (black, not interim).
    const user = page.locator('[data-test="transcript-user"][data-interim="false"]');
    const model = page.locator('[data-test="transcript-assistant"][data-interim="false"]');
    await expect.poll(() => user.count(), SLOW).toBeGreaterThan(0);
    await expect.poll(() => model.count(), SLOW).toBeGreaterThan(0);
    // The sandbox's STT is synthetic (words made from the sound, not recognised): some words, not these.
    expect((await user.first().innerText()).replace(/^You:\s*/, '').trim().split(/\s+/).length).toBeGreaterThan(1);
    expect((await model.first().innerText()).replace(/^Model:\s*/, '').trim().length).toBeGreaterThan(3);

    // Latency of the turn, as numbers (a figure, never the em dash of "unknown").
    await expect.poll(() => page.locator('[data-test="turn-first-audio"] b').first().innerText(), SLOW).toMatch(/^\d+(\.\d+)? (ms|s)$/);
    await expect.poll(() => page.locator('[data-test="turn-first-played"] b').first().innerText(), SLOW).toMatch(/^\d+(\.\d+)? (ms|s)$/);
    expect(await page.locator('[data-test="p50-first-audio"]').innerText()).toMatch(/^\d+(\.\d+)? (ms|s)$/);

    // The event log: the session set up both ways, the answer's audio deltas folded.
    // (The list is virtualised and follows the newest rows: the filter brings the older ones into view.)
    const filter = page.locator('[data-test="log-filter-text"]');
    await filter.fill('session.');
    await expect.poll(() => page.locator('[data-test="log-type"]').allInnerTexts(), SLOW).toEqual(expect.arrayContaining(['session.created', 'session.updated']));
    // Our own messages too (sent, →): the session.update the call opened with.
    await expect.poll(() => page.locator('.log-row.out [data-test="log-type"]').allInnerTexts(), SLOW).toContain('session.update');
    await filter.fill('output_audio.delta');
    const folded = await page.locator('[data-test="log-type"]').allInnerTexts();
    expect(folded.length).toBeGreaterThan(0);
    expect(folded.every((t) => /^response\.output_audio\.delta( ×\d+)?$/.test(t))).toBe(true);
    expect(folded.some((t) => / ×\d+$/.test(t))).toBe(true);
    await filter.fill('');
    await screenshot(page, 'realtime-01-call');

    await page.locator('[data-test="call-hangup"]').click();
    await expect.poll(() => page.locator('[data-test="call-start"]').isVisible(), SLOW).toBe(true);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History', exact: true }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Realtime · call' }).count(), SLOW).toBeGreaterThan(0);
  });
});
