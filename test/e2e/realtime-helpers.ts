/**
 * What the realtime console's e2e files share: microphone WAVs for Chromium's fake capture (an
 * eSpeak NG sentence with silence after it, or silence), the console's form and call bar as a user
 * works them, the event log read through its type filter, and a TCP proxy in front of a test's own
 * sandbox (destroying its sockets is the network dropping; it can hold a socket's handshake while
 * the test moves the sandbox clock).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, connect, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { encodeWav, parseWav } from '../../shared/audio/wav';
import { ClientFrameReader, SentMessages } from './ws-client-frames';

export const SLOW = { timeout: 60_000 };

/** eSpeak NG's CLI: the sentence, then `gapS` of silence (Chromium loops the file). */
export function speechWav(dir: string, text: string, gapS: number): Buffer {
  const out = join(dir, 'q.wav');
  execFileSync('espeak-ng', ['-v', 'en-us', '-w', out, text]);
  const parsed = parseWav(readFileSync(out));
  if (!parsed.ok) throw new Error(parsed.error.message);
  const rate = parsed.value.sampleRate;
  const samples = new Int16Array(parsed.value.samples.length + Math.round(rate * gapS));
  samples.set(parsed.value.samples, 0);
  return Buffer.from(encodeWav({ sampleRate: rate, channels: 1, samples }));
}

/** Seconds of silence: a microphone that never starts a server-VAD turn. */
export function silenceWav(seconds: number): Buffer {
  return Buffer.from(encodeWav({ sampleRate: 16_000, channels: 1, samples: new Int16Array(16_000 * seconds) }));
}

export async function openConsole(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Realtime', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Realtime call console' }).waitFor();
  // The form settles once the device lists have arrived: each picker then offers the native devices
  // or says (a note on a line of its own) why there are none. A click before that can land while
  // the form moves under it, and be lost (see openSection).
  const settled = page
    .locator('[data-test="connect-form"] .audio-device-picker')
    .filter({ has: page.locator('option[value^="native:"], small[data-test^="audio-device-"]') });
  await expect.poll(() => settled.count(), SLOW).toBe(2);
}

/**
 * Opens the connect form's collapsible section (`details.tools`) with a click on its summary, and
 * waits until it is open. The form moves while it settles (each device picker adds its "no native
 * device" note when the device list arrives): a click whose pointer-down and pointer-up land on
 * different boxes toggles nothing, though Playwright reports it done. So the click is made again
 * until the section is open, as a user would.
 */
export async function openSection(page: Page, selector: string): Promise<void> {
  const details = page.locator(selector);
  const isOpen = async () => (await details.getAttribute('open')) !== null;
  await expect
    .poll(async () => {
      if (!(await isOpen())) await details.locator(':scope > summary').click();
      return isOpen();
    }, { timeout: 10_000 })
    .toBe(true);
}

/** Start call, then wait for `Live`. */
export async function startCall(page: Page): Promise<void> {
  await page.locator('[data-test="call-start"]').click();
  await expect.poll(() => page.locator('[data-test="call-status"]').textContent().catch(() => null), SLOW).toBe('Live');
}

/** Hang up, then wait for the form to be back. */
export async function hangUp(page: Page): Promise<void> {
  await page.locator('[data-test="call-hangup"]').click();
  await expect.poll(() => page.locator('[data-test="call-start"]').isVisible(), SLOW).toBe(true);
}

/** Types a message to the model and sends it. */
export async function say(page: Page, text: string): Promise<void> {
  await page.locator('[data-test="call-text"]').fill(text);
  await page.locator('.typed').getByRole('button', { name: 'Send' }).click();
}

/** The final transcript entries of one side, their words without the "You:" / "Model:" label. */
export async function transcript(page: Page, role: 'user' | 'assistant'): Promise<string[]> {
  const texts = await page.locator(`[data-test="transcript-${role}"][data-interim="false"]`).allInnerTexts();
  return texts.map((t) => t.replace(/^(You|Model)( \(typed\))?:\s*/, '').trim());
}

/** Types `filter` into the log's filter and waits for the log to draw (it draws once an animation frame). */
async function filterLog(page: Page, filter: string): Promise<void> {
  await page.locator('[data-test="log-filter-text"]').fill(filter);
  // A string: the tests' type check has no DOM library.
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(null))))');
}

/**
 * The event log's rows whose type contains `filter`, as shown (`→ type` sent, `← type` received;
 * folded deltas keep their ×N). The log is virtualised: a narrow filter brings every match into view.
 */
export async function logRows(page: Page, filter: string): Promise<string[]> {
  await filterLog(page, filter);
  return page.locator('[data-test="log-row"]').evaluateAll((rows) =>
    rows.map((r) => `${r.classList.contains('out') ? '→' : '←'} ${r.querySelector('[data-test="log-type"]')?.textContent?.trim() ?? ''}`),
  );
}

/** The JSON of every row matching `filter` (each opened on demand, as a user clicks it). */
export async function logJson(page: Page, filter: string): Promise<string[]> {
  await filterLog(page, filter);
  const rows = page.locator('[data-test="log-row"]');
  const out: string[] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    await rows.nth(i).click();
    out.push(await page.locator('[data-test="log-json"]').innerText());
    await rows.nth(i).click();
  }
  return out;
}

/** A TCP proxy in front of a sandbox: the app's connection goes through it. */
export interface SocketProxy {
  url: string;
  /** Destroys every realtime socket through it (no close frame): the network dropped. */
  drop(): void;
  /** The header lines of each realtime handshake so far (how the app authenticated). */
  handshakes(): string[];
  /** Runs `hold` before the next realtime handshake is passed on (once). */
  holdNextHandshake(hold: () => Promise<void>): void;
  /** What the app sent on its realtime sockets, message by message (ws-client-frames.ts). */
  readonly sent: SentMessages;
  close(): Promise<void>;
}

export async function startSocketProxy(target: string): Promise<SocketProxy> {
  const { hostname, port } = new URL(target);
  const realtime = new Set<Socket>();
  const all = new Set<Socket>();
  const heads: string[] = [];
  let hold: (() => Promise<void>) | null = null;
  const sent = new SentMessages();
  const server = createServer((client) => {
    all.add(client);
    client.on('error', () => client.destroy());
    client.once('close', () => all.delete(client));
    client.once('data', (first: Buffer) => {
      client.pause();
      const isRealtime = first.toString('latin1', 0, 32).startsWith('GET /v1/realtime');
      const go = async (): Promise<void> => {
        if (isRealtime) {
          heads.push(first.toString('latin1').split('\r\n\r\n')[0]);
          const h = hold;
          hold = null;
          if (h) await h();
        }
        if (client.destroyed) return;
        const upstream = connect(Number(port), hostname);
        all.add(upstream);
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
        upstream.once('close', () => {
          all.delete(upstream);
          client.destroy();
        });
        client.once('close', () => {
          realtime.delete(client);
          upstream.destroy();
        });
        if (isRealtime) {
          realtime.add(client);
          // After the handshake (the first chunk) every byte from the app is WebSocket frames.
          const reader = new ClientFrameReader(sent);
          client.on('data', (chunk: Buffer) => reader.push(chunk));
        }
        upstream.write(first);
        client.pipe(upstream);
        upstream.pipe(client);
      };
      void go().catch(() => client.destroy());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    drop: () => {
      for (const s of realtime) s.destroy();
      realtime.clear();
    },
    handshakes: () => [...heads],
    sent,
    holdNextHandshake: (h) => {
      hold = h;
    },
    close: async () => {
      for (const s of all) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
