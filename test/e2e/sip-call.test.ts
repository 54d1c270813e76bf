/**
 * A SIP call as a user meets it, in Chromium against the app in browser mode and a sandbox of the
 * test's own (added as a connection, so it can be stopped): register a number whose webhook is
 * the app's loopback receiver (the default), place a simulated call through the sandbox's control
 * API (POST /sandbox/calls, a `say` script) while another view is open, see it ring in the shell's
 * banner, Answer, press DTMF keys as the caller (the sandbox's control API: the pad is the built-in
 * sandbox's only) and see the digits the service reported, transfer it
 * (refer to tel:+1…) once the caller has heard the model answer the keys; then, with the sandbox
 * stopped, find the call in History and play the model's track of its recording.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../main/sandbox';
import { closeAppPage, openAppPage, screenshot, useServiceConnection, type AppPage } from './harness';

const SLOW = { timeout: 60_000 };
const NUMBER = '+18005550142';
const TARGET = 'tel:+14155550123';

/**
 * Runs `step`; when it fails, keeps a screenshot and puts what the page's Audio region lists (each
 * track's name, length and note, each player's clock) in the error, so a failure in CI says which
 * track was there and what it held.
 */
async function explained<T>(page: Page, shot: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    await screenshot(page, shot).catch(() => undefined);
    const audio = await page.getByRole('region', { name: 'Audio' }).innerText({ timeout: 2_000 }).catch((e: unknown) => `(no Audio region: ${String(e)})`);
    if (error instanceof Error) error.message += `\nAudio region (screenshot ${shot}.png):\n${audio}`;
    throw error;
  }
}

function clockOf(text: string): [number, number] {
  const m = /(\d+):(\d+\.\d) \/ (\d+):(\d+\.\d)/.exec(text);
  if (!m) throw new Error(`no clock in ${JSON.stringify(text)}`);
  return [Number(m[1]) * 60 + Number(m[2]), Number(m[3]) * 60 + Number(m[4])];
}

describe('SIP call: ring, answer, keys, transfer, History offline (browser mode)', () => {
  let opened: AppPage | undefined;
  let page: Page;
  let sb: SandboxServer | undefined;
  const key = 'sk-e2e-sip-0';
  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
  const control = (path: string, body?: unknown) =>
    fetch(`${sb!.url}${path}`, { method: body === undefined ? 'GET' : 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

  beforeAll(async () => {
    sb = await startSandbox({ keys: [key], tokenDelayMs: 0 });
    opened = await openAppPage({ viewport: { width: 1400, height: 1100 } });
    page = opened.page;
    await page.goto(opened.app.url);
    await useServiceConnection(page, { name: 'SIP sandbox', url: sb.url, key });
  }, 180_000);

  afterAll(async () => {
    await sb?.close();
    expect(await closeAppPage(opened)).toBe(0);
  });

  it('rings on any view, is answered, takes the caller’s keys, transfers, and plays from History with the sandbox stopped', async () => {
    // Register a number; its webhook defaults to the app's receiver on loopback.
    await nav('Phone (SIP)').click();
    await page.getByRole('heading', { level: 1, name: 'Phone (SIP)' }).waitFor();
    const form = page.getByRole('region', { name: 'Register a number' });
    await form.getByLabel('Name', { exact: true }).fill('Front desk');
    await form.getByLabel('Phone number', { exact: true }).fill(NUMBER);
    await form.getByLabel('Allowed addresses').fill('127.0.0.0/8');
    await form.getByRole('button', { name: 'Register' }).click();
    await page.locator('[data-test="signing-secret"]').waitFor(SLOW);
    await page.getByRole('button', { name: 'Done' }).click();

    // The call comes in while the user is elsewhere: the shell's banner rings.
    await nav('Models').click();
    const placed = await control('/sandbox/calls', { to: NUMBER, from: '+14155550100', script: { say: 'Hello, I am calling about my order. My reference follows.', hangup_after_ms: null } });
    expect(placed.status).toBe(200);
    const { call_id: callId } = (await placed.json()) as { call_id: string };
    const banner = page.getByRole('region', { name: 'Incoming calls' });
    await expect.poll(() => banner.innerText().catch(() => ''), SLOW).toContain(`Incoming call from +14155550100 to ${NUMBER}`);
    await screenshot(page, 'sip-01-ringing');
    await banner.getByRole('button', { name: 'Answer' }).click();

    // Answered: Phone (SIP) opens with the call's controls.
    const row = page.locator(`[data-call="${callId}"]`);
    await expect.poll(() => row.getAttribute('data-state').catch(() => null), SLOW).toBe('answered');
    // The sandbox joins the caller to the realtime socket just after it opens.
    await expect.poll(async () => ((await (await control(`/sandbox/calls/${callId}`)).json()) as { state: string }).state, SLOW).toBe('joined');

    // The call is on a connection of its own, not the built-in sandbox: no pad (its caller presses
    // keys on their own phone). The sandbox's control API presses them as the caller; they come
    // back as the digits the service reported.
    expect(await row.getByRole('group', { name: `Keypad for ${callId}` }).count()).toBe(0);
    expect((await control(`/sandbox/calls/${callId}/dtmf`, { digits: '42#' })).status).toBe(200);
    await expect.poll(() => row.locator('[data-test="dtmf-digits"]').innerText(), SLOW).toBe('42#');
    const sent = (await (await control(`/sandbox/calls/${callId}`)).json()) as { caller: { dtmf_sent: Array<{ digit: string }> } };
    expect(sent.caller.dtmf_sent.map((d) => d.digit).join('')).toBe('42#');
    await screenshot(page, 'sip-02-answered-keys');

    // The call console shows the call answered from the banner (its realtime session) and its state.
    await nav('Realtime').click();
    await expect.poll(() => page.locator('[data-test="phone-call-title"]').innerText().catch(() => ''), SLOW).toBe(`Phone call from +14155550100 to ${NUMBER}`);
    await expect.poll(() => page.locator('[data-test="phone-call-state"]').innerText().catch(() => ''), SLOW).toBe('Answered');
    await nav('Phone (SIP)').click();

    // The caller hears the model answer the keys (the '#' hands them to the model) before the
    // transfer: the call's recording (the model's side; the caller's audio never reaches the
    // app) then holds speech. Transferred sooner, the model has not spoken and that track is
    // empty, as History then says.
    await expect
      .poll(async () => ((await (await control(`/sandbox/calls/${callId}`)).json()) as { caller: { heard: { ms: number } } }).caller.heard.ms, SLOW)
      .toBeGreaterThan(1_500);

    // Transfer: a bad target is refused before sending, a good one ends the call.
    await row.getByLabel(`Transfer target for ${callId}`).fill('tel:4155550123');
    await row.getByRole('button', { name: 'Transfer' }).click();
    await expect.poll(() => row.getByRole('alert').first().innerText(), SLOW).toMatch(/tel:/);
    await row.getByLabel(`Transfer target for ${callId}`).fill(TARGET);
    await row.getByRole('button', { name: 'Transfer' }).click();
    await expect.poll(() => row.getAttribute('data-state'), SLOW).toBe('transferred');
    await expect.poll(() => row.locator('[data-test="end-reason"]').innerText(), SLOW).toContain(`Transferred to ${TARGET}.`);
    const ended = (await (await control(`/sandbox/calls/${callId}`)).json()) as { ended: { reason: string; target_uri?: string } | null };
    expect(ended.ended).toMatchObject({ reason: 'referred', target_uri: TARGET });
    await nav('Realtime').click();
    await expect.poll(() => page.locator('[data-test="phone-call-state"]').innerText().catch(() => ''), SLOW).toBe(`Transferred to ${TARGET}.`);

    // The service is stopped: the call's recording still plays from History.
    await sb!.close();
    sb = undefined;
    await nav('History').click();
    const call = page.getByRole('row').filter({ hasText: `SIP call ${callId}` }).first();
    await expect.poll(() => call.isVisible(), SLOW).toBe(true);
    expect(await page.getByRole('row').filter({ hasText: 'Incoming call from +14155550100' }).count()).toBeGreaterThan(0);
    await call.getByRole('link').first().click();
    // The model's track (a call answered here has no microphone track: its caller is the far side).
    const model = page.getByRole('region', { name: 'Audio' }).getByRole('group', { name: 'model, received' });
    const player = model.locator('.waveform-player');
    await explained(page, 'sip-fail-history', async () => {
      await player.waitFor(SLOW);
      await expect.poll(async () => clockOf(await player.locator('.wf-clock').innerText())[1], SLOW).toBeGreaterThan(1);
      await player.getByRole('button', { name: /^Play / }).click();
      await expect.poll(async () => clockOf(await player.locator('.wf-clock').innerText())[0], SLOW).toBeGreaterThan(0.3);
    });
    await screenshot(page, 'sip-03-history-offline');
  }, 300_000);
});
