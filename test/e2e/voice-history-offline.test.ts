/**
 * Issue 15's voice runs end to end in Chromium (browser mode), then found in History after a
 * restart with the service stopped. Against a sandbox of the test's own (a connection, as a user
 * adds one, so it can be stopped; the app's built-in sandbox cannot be switched off):
 *  1. Speech over REST with timestamps (its characters light as it plays);
 *  2. a dropped WAV of two eSpeak voices transcribed (words, two speakers);
 *  3. a live transcription from the page's microphone — Chromium's fake capture reading an
 *     espeak-ng WAV — interim words grey, finals black; a reload mid-session re-attaches and the
 *     transcript goes on; then Stop;
 *  4. a voice cloned from a clip dropped on the app, then Speech spoken in it.
 * Then the sandbox is closed, the app stopped and started again on the same data folder, and each
 * run is opened from History and played from the blob store: nothing reaches the service.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../main/sandbox';
import { encodeWav, parseWav } from '../../shared/audio/wav';
import { closeAppPage, fakeMicrophoneArgs, openAppPage, screenshot, useServiceConnection, type AppPage } from './harness';

const SLOW = { timeout: 30_000 };
const SPOKEN = 'Offline history keeps this sentence and its timing.';
const IN_CLONE = 'Hello from my cloned voice, spoken in the playground.';

/** eSpeak NG's CLI (a test-only tool): 22.05 kHz mono samples. */
function speak(dir: string, text: string, voice = 'en-us', pitch = 50): Int16Array {
  const out = join(dir, `speak-${pitch}-${voice.replace(/\W/g, '')}.wav`);
  execFileSync('espeak-ng', ['-v', voice, '-p', String(pitch), '-w', out, text]);
  const parsed = parseWav(readFileSync(out));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value.samples;
}

/** Pieces of 22.05 kHz audio joined, with `gapS` seconds of silence after each. */
function joined(parts: Int16Array[], gapS: number): Buffer {
  const gap = Math.round(22050 * gapS);
  const samples = new Int16Array(parts.reduce((n, p) => n + p.length + gap, 0));
  let at = 0;
  for (const p of parts) {
    samples.set(p, at);
    at += p.length + gap;
  }
  return Buffer.from(encodeWav({ sampleRate: 22050, channels: 1, samples }));
}

/** The waveform player's clock, "m:ss.s / m:ss.s", as [position, length] in seconds. */
function clockOf(text: string): [number, number] {
  const m = /(\d+):(\d+\.\d) \/ (\d+):(\d+\.\d)/.exec(text);
  if (!m) throw new Error(`no clock in ${JSON.stringify(text)}`);
  return [Number(m[1]) * 60 + Number(m[2]), Number(m[3]) * 60 + Number(m[4])];
}

/** Drops `bytes` as a file named `name` on the element `selector` (as a drag from the desktop does). */
async function dropFile(page: Page, selector: string, name: string, bytes: Buffer): Promise<void> {
  await page.evaluate(`(() => {
    const bytes = Uint8Array.from(atob(${JSON.stringify(bytes.toString('base64'))}), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], ${JSON.stringify(name)}, { type: 'audio/wav' }));
    const target = document.querySelector(${JSON.stringify(selector)});
    for (const type of ['dragenter', 'dragover', 'drop']) target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }));
  })()`);
}

/** An element's computed text colour as [r, g, b]. */
async function colourOf(page: Page, selector: string): Promise<[number, number, number]> {
  const css = await page.locator(selector).first().evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(el).color);
  const m = /rgba?\((\d+), (\d+), (\d+)/.exec(css);
  if (!m) throw new Error(`not a colour: ${css}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

const brightness = ([r, g, b]: [number, number, number]): number => (r + g + b) / 3;

describe('voice runs in History after a restart with the service stopped (browser mode)', () => {
  let opened: AppPage | undefined;
  let page: Page;
  let sb: SandboxServer | undefined;
  let dir: string;
  let dataDir = '';
  const key = 'sk-e2e-voice-history-0';
  let twoVoices: Buffer;
  let clip: Buffer;
  let voiceId = '';
  let liveWords: string[] = [];
  let transcribedWords: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wb-e2e-voice-history-'));
    sb = await startSandbox({ keys: [key], tokenDelayMs: 0 });
    twoVoices = joined([speak(dir, 'The quick brown fox jumps over the lazy dog near the river bank.', 'en-us', 10), speak(dir, 'Seven silver spoons were found beneath the old wooden table.', 'en-us', 95)], 1);
    clip = joined([speak(dir, 'This is my reference recording for a cloned voice.', 'en+m3')], 0.2);
    // The page's microphone: Chromium loops this file; the silence after each sentence ends an utterance.
    const mic = join(dir, 'microphone.wav');
    writeFileSync(mic, joined([speak(dir, 'Testing the live microphone. One two three four five.'), speak(dir, 'Another sentence arrives after a pause.', 'en-us', 70)], 1.5));
    opened = await openAppPage({ viewport: { width: 1400, height: 1000 }, browserArgs: fakeMicrophoneArgs(mic) });
    dataDir = opened.app.dataDir;
    page = opened.page;
    await page.goto(opened.app.url);
    await useServiceConnection(page, { name: 'Voice sandbox', url: sb.url, key });
  }, 180_000);

  afterAll(async () => {
    await sb?.close();
    await closeAppPage(opened);
    rmSync(dir, { recursive: true, force: true });
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const nav = (name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true });

  it('synthesises speech with timestamps: the characters light as it plays', async () => {
    await nav('Speech').click();
    await page.getByTestId('speech-text').fill(SPOKEN);
    await page.getByTestId('speech-send').click();
    const player = page.getByTestId('speech-player');
    await expect.poll(async () => clockOf(await player.locator('.wf-clock').innerText())[1], SLOW).toBeGreaterThan(1);
    expect(await player.locator('.wf-text .ch').count()).toBe(SPOKEN.length);
  });

  it('transcribes a dropped WAV: words and two speakers', async () => {
    await nav('Transcription').click();
    await page.locator('[data-testid="drop-zone"]').waitFor();
    await dropFile(page, '[data-testid="drop-zone"]', 'two-voices.wav', twoVoices);
    const result = page.locator('[data-testid="result"]');
    await expect.poll(() => page.locator('[data-testid="speakers"]').textContent(), SLOW).toBe('Speaker 1Speaker 2');
    transcribedWords = await result.locator('[data-testid="word"]').allTextContents();
    expect(transcribedWords.length).toBeGreaterThan(5);
  });

  it('transcribes the page microphone live: interim grey, final black; a reload re-attaches and it goes on; Stop ends it', async () => {
    const live = page.getByRole('region', { name: 'Live transcription' });
    await live.locator('[data-test="live-start"]').click();
    await expect.poll(() => live.locator('[data-test="live-status"]').textContent(), SLOW).toBe('listening');
    // The level meter moves with the microphone (its value is the level in dBFS; silence reads -100).
    await expect.poll(async () => Number(await live.getByRole('meter', { name: 'Microphone level' }).getAttribute('aria-valuenow')), SLOW).toBeGreaterThan(-50);
    // Interim text shows first, lighter than the finals that follow it.
    await live.locator('[data-test="live-interim"]').first().waitFor(SLOW);
    const interim = await colourOf(page, '.live-transcription [data-test="live-interim"]');
    await expect.poll(() => live.locator('[data-test="live-final"]').count(), SLOW).toBeGreaterThan(0);
    const final = await colourOf(page, '.live-transcription [data-test="live-final"]');
    // The theme's text colour (near black) for finals, its muted grey for interim words.
    expect(brightness(final)).toBeLessThan(100);
    expect(brightness(interim), `interim ${interim.join(',')} vs final ${final.join(',')}`).toBeGreaterThan(brightness(final) + 40);
    await screenshot(page, 'voice-history-01-live');

    // A reload mid-session: the page re-attaches from the snapshot, the finals so far come back,
    // and more follow from the same (still looping) microphone.
    const before = await live.locator('[data-test="live-final"]').allTextContents();
    await page.reload();
    await page.getByRole('region', { name: 'Live transcription' }).waitFor(SLOW);
    const again = page.getByRole('region', { name: 'Live transcription' });
    await expect.poll(() => again.locator('[data-test="live-status"]').textContent(), SLOW).toBe('listening');
    await expect.poll(async () => (await again.locator('[data-test="live-final"]').allTextContents()).slice(0, before.length), SLOW).toEqual(before);
    await expect.poll(() => again.locator('[data-test="live-final"]').count(), { timeout: 60_000 }).toBeGreaterThan(before.length);
    // The reload restarts the looped file, so wait for the pause after a sentence: an utterance
    // ends (the rule after it), and History has a turn to time.
    await expect.poll(() => again.locator('.utterance-end').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    await again.locator('[data-test="live-stop"]').click();
    await expect.poll(() => again.locator('[data-test="live-status"]').textContent(), SLOW).toBe('ended');
    liveWords = (await again.locator('[data-test="live-final"]').allTextContents()).join(' ').split(/\s+/).filter(Boolean);
    expect(liveWords.length).toBeGreaterThan(3);
    await screenshot(page, 'voice-history-02-live-ended');
  });

  it('clones a voice from a clip dropped on the app, then speaks in it', async () => {
    await nav('Chat').click();
    await page.locator('main').waitFor();
    const dataTransfer = await page.evaluateHandle((bytes) => {
      const dt = new (globalThis as any).DataTransfer();
      dt.items.add(new File([new Uint8Array(bytes)], 'my-voice.wav', { type: 'audio/wav' }));
      return dt;
    }, [...clip]);
    await page.dispatchEvent('main', 'dragover', { dataTransfer });
    await page.dispatchEvent('main', 'drop', { dataTransfer });
    await page.getByRole('group', { name: 'Actions for the dropped files' }).getByRole('button', { name: 'Clone a voice' }).click();
    const panel = page.getByRole('region', { name: 'Clone a voice' });
    await expect.poll(() => panel.getByLabel('Clip').textContent(), SLOW).toContain('my-voice.wav');
    await panel.getByLabel('Name', { exact: true }).fill('Offline Narrator');
    await panel.getByRole('button', { name: 'Clone voice' }).click();
    // (The microphone picker's note is a status too: the one that says Cloned.)
    const cloned = panel.getByRole('status').filter({ hasText: 'Cloned' });
    await expect.poll(() => cloned.textContent(), SLOW).toMatch(/Cloned "Offline Narrator" \([a-z0-9]{8}\)/);
    voiceId = /\(([a-z0-9]{8})\)/.exec((await cloned.textContent())!)![1]!;

    // Speak in it from the Speech playground: the voice is listed under Custom and the run keeps its audio.
    await nav('Speech').click();
    const voice = page.getByTestId('speech-voice');
    await expect.poll(() => voice.locator(`option[value="${voiceId}"]`).count(), SLOW).toBe(1);
    await voice.selectOption(voiceId);
    await page.getByTestId('speech-text').fill(IN_CLONE);
    await page.getByTestId('speech-send').click();
    const player = page.getByTestId('speech-player');
    await expect.poll(async () => clockOf(await player.locator('.wf-clock').innerText())[1], SLOW).toBeGreaterThan(1);
    expect(await player.locator('.wf-text .ch').count()).toBe(IN_CLONE.length);
    await screenshot(page, 'voice-history-03-cloned-voice-speaks');
  });

  it('after a restart with the service stopped, History plays each run offline', async () => {
    await sb!.close();
    const url = sb!.url;
    sb = undefined;
    await expect(fetch(`${url}/v1/tts/voices`)).rejects.toThrow(); // the service is gone
    expect(await closeAppPage(opened, { keepData: true })).toBe(0);
    opened = await openAppPage({ dataDir, viewport: { width: 1400, height: 1000 } });
    page = opened.page;
    await page.goto(opened.app.url);
    await page.locator('main').waitFor(SLOW);

    const openRow = async (text: string | RegExp): Promise<void> => {
      await nav('History').click();
      const row = page.getByRole('row').filter({ hasText: text }).first();
      await expect.poll(() => row.isVisible(), SLOW).toBe(true);
      await row.getByRole('link').first().click();
    };

    // Speech (both runs): the kept audio decodes, its waveform is drawn, End lights every character.
    for (const text of [SPOKEN, IN_CLONE]) {
      await openRow(text);
      const run = page.getByTestId('speech-run');
      await expect.poll(() => run.locator('.sent').textContent(), SLOW).toBe(text);
      const player = run.getByTestId('speech-player');
      await expect.poll(async () => clockOf(await player.locator('.wf-clock').innerText())[1], SLOW).toBeGreaterThan(1);
      expect(await player.locator('.wf-wave').evaluate((el) => el.firstElementChild?.shadowRoot?.querySelectorAll('canvas').length ?? 0)).toBeGreaterThan(0);
      await player.getByRole('button', { name: 'Play Speech' }).click();
      await expect.poll(() => player.locator('.wf-text .ch.lit').count(), SLOW).toBeGreaterThan(2);
      await player.getByRole('button', { name: 'Pause Speech' }).click();
      await player.getByRole('slider', { name: 'Speech position' }).focus();
      await page.keyboard.press('End');
      await expect.poll(() => player.locator('.wf-text .ch.lit').count(), SLOW).toBe(text.length);
    }
    expect(await page.locator('body').innerText()).toContain(voiceId); // the second run's voice
    await screenshot(page, 'voice-history-04-speech-offline');

    // The dropped file's transcription: the same words, two speakers, its audio loads.
    await openRow('Transcription · two-voices.wav');
    const entry = page.getByRole('region', { name: 'Transcript of this run' });
    await expect.poll(() => entry.locator('[data-testid="word"]').allTextContents(), SLOW).toEqual(transcribedWords);
    expect(await entry.locator('.segment.speaker-0').count()).toBeGreaterThan(0);
    expect(await entry.locator('.segment.speaker-1').count()).toBeGreaterThan(0);
    await expect.poll(async () => clockOf(await entry.locator('.waveform-player .wf-clock').innerText())[1], SLOW).toBeGreaterThan(8);

    // The live session: the microphone track plays; the timeline has messages both ways.
    await openRow('Transcription · Live microphone (page)');
    // The title reads "Run" until the record has loaded.
    await expect.poll(() => page.locator('h1').innerText(), SLOW).toBe('Transcription · Live microphone (page)');
    const audio = page.getByRole('region', { name: 'Audio' });
    const mic = audio.locator('.waveform-player').first();
    await mic.waitFor(SLOW).catch(async (error: unknown) => {
      await screenshot(page, 'voice-history-05-live-missing');
      throw new Error(`${String(error)}\n${(await page.locator('main').innerText()).slice(0, 2000)}`);
    });
    await expect.poll(async () => clockOf(await mic.locator('.wf-clock').innerText())[1], SLOW).toBeGreaterThan(2);
    await mic.getByRole('button', { name: /^Play / }).click();
    await expect.poll(async () => clockOf(await mic.locator('.wf-clock').innerText())[0], SLOW).toBeGreaterThan(0.3);
    const timeline = page.getByRole('listbox', { name: 'Session timeline' });
    await timeline.waitFor(SLOW);
    await expect.poll(() => page.locator('.timeline-row.in').count(), SLOW).toBeGreaterThan(0);
    await expect.poll(() => page.locator('.timeline-row.out').count(), SLOW).toBeGreaterThan(0);
    expect(await page.locator('.timeline-row').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining('transcript.created')]));
    // Its transcript is kept with the run: the words the live panel showed, in utterances with times.
    const norm = (w: string): string => w.toLowerCase().replace(/[^a-z0-9']/g, '');
    const transcript = page.getByRole('region', { name: 'Transcript' });
    await expect.poll(() => transcript.locator('[data-testid="word"]').count(), SLOW).toBeGreaterThan(3);
    const keptWords = (await transcript.locator('[data-testid="word"]').allTextContents()).map(norm);
    for (const w of liveWords.slice(0, 4).map(norm)) expect(keptWords, `History's transcript: ${keptWords.join(' ')}`).toContain(w);
    expect(await transcript.locator('[data-testid="segment"] .when').first().innerText()).toMatch(/^\d\d:\d\d/);
    // Each utterance's end was marked, so the final-transcript latency is a figure, not "—".
    const figures = page.getByRole('region', { name: 'Figures' });
    expect(await figures.locator('dt:text-is("Final transcript") + dd').innerText()).toMatch(/^p50 \d+ ms · p95 \d+ ms over \d+ turns?$/);
    await screenshot(page, 'voice-history-05-live-offline');

    // The clone is a run in History, and its reference clip (kept in the blob store) plays.
    await openRow('Voices · clone');
    // The title reads "Run" until the record has loaded.
    await expect.poll(() => page.locator('h1').innerText(), SLOW).toContain('Voices');
    const clipPlayer = page.locator('[data-testid="voice-run-clip"]');
    await clipPlayer.waitFor(SLOW);
    await expect.poll(async () => clockOf(await clipPlayer.locator('.wf-clock').innerText())[1], SLOW).toBeGreaterThan(1);
    await clipPlayer.getByRole('button', { name: /^Play / }).click();
    await expect.poll(async () => clockOf(await clipPlayer.locator('.wf-clock').innerText())[0], SLOW).toBeGreaterThan(0.3);
    await screenshot(page, 'voice-history-06-clone-offline');
  }, 300_000);

  it('with the microphone not allowed, the live panel says why and stops the session', async () => {
    // This browser was started without Chromium's fake-capture switches, and Playwright answers a
    // permission prompt with "no": getUserMedia is refused (or finds no device) as a user's would be.
    await page.getByRole('combobox', { name: 'Connection' }).click();
    await page.getByRole('option', { name: 'Sandbox', exact: true }).click();
    await page.locator('.p-select-overlay').waitFor({ state: 'detached' });
    await nav('Transcription').click();
    const live = page.getByRole('region', { name: 'Live transcription' });
    await live.locator('[data-test="live-start"]').click();
    await expect.poll(() => live.textContent(), SLOW).toMatch(/(Microphone access was refused|No microphone found)[^]*The session was stopped; the transcript so far is kept\./);
    await expect.poll(() => live.locator('[data-test="live-status"]').textContent(), SLOW).toBe('ended');
    expect(await live.locator('[data-test="live-start"]').isVisible()).toBe(true);
    await screenshot(page, 'voice-history-07-microphone-refused');
  });
});
