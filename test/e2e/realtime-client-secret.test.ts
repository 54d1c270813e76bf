/**
 * A realtime call connected with a minted client secret, as a user meets it, in Chromium against
 * the app in browser mode and a sandbox of the test's own (through a TCP proxy that shows how the
 * socket authenticated). The console counts the secret's time left down; the key itself never goes
 * on the socket. Then a secret that has expired by the time the socket reaches the service: the
 * proxy holds the handshake while the test moves the sandbox clock past the secret's expiry through
 * the sandbox control API (`POST /sandbox/clock/advance`), as a slow network would; the service
 * refuses it and the console and History both say why.
 */



import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './harness';
import { hangUp, openConsole, say, silenceWav, SLOW, startCall, transcript } from './realtime-helpers';
import { useRealtimeApp } from './realtime-app';

const LIFETIME_S = 120;

/** `client secret 1:58` → 118. */
function secondsLeft(text: string): number {
  const m = /client secret (\d+):(\d\d)$/.exec(text.trim());
  if (!m) throw new Error(`no countdown in ${JSON.stringify(text)}`);
  return Number(m[1]) * 60 + Number(m[2]);
}

describe('Realtime call: a minted client secret (browser mode)', () => {
  const key = 'sk-e2e-realtime-secret';
  const rt = useRealtimeApp({ key, name: 'secret', mic: () => silenceWav(2), proxy: true });
  let page: Page;
  beforeAll(() => void (page = rt.page));

  it('connects with the secret (never the key) and counts its time left down', async () => {
    await openConsole(page);
    await page.locator('[data-test="auth-secret"]').check();
    await page.locator('[data-test="secret-seconds"]').fill(String(LIFETIME_S));
    await startCall(page);

    // The socket was opened with the secret as its subprotocol, not with the key.
    const [head] = rt.proxy.handshakes();
    expect(head).toMatch(/^sec-websocket-protocol:.*svc-client-secret\.cs-sandbox-[0-9a-f]+/im);
    expect(head).not.toContain(key);

    const countdown = page.locator('[data-test="secret-countdown"]');
    const first = secondsLeft(await countdown.innerText());
    expect(first).toBeGreaterThan(LIFETIME_S - 30);
    expect(first).toBeLessThanOrEqual(LIFETIME_S);
    await expect.poll(async () => secondsLeft(await countdown.innerText()), SLOW).toBeLessThan(first);
    expect(secondsLeft(await countdown.innerText())).toBeGreaterThan(LIFETIME_S - 60);

    // The call works on it.
    await say(page, 'Say the secret works.');
    await expect.poll(() => transcript(page, 'assistant'), SLOW).toEqual([expect.stringMatching(/the secret works/i)]);
    await screenshot(page, 'realtime-secret-01-countdown');
    await hangUp(page);
  });

  it('a secret that expired before the socket got through: refused, said in the console and in History', async () => {
    // On its own even when the test before stopped mid-call.
    if (await page.locator('[data-test="call-hangup"]').isVisible()) await hangUp(page);
    // The next handshake waits at the proxy while the service's clock moves past the secret's expiry.
    rt.proxy.holdNextHandshake(async () => {
      const res = await fetch(`${rt.sb.url}/sandbox/clock/advance`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ seconds: LIFETIME_S + 5 }) });
      if (!res.ok) throw new Error(`clock advance: ${res.status} ${await res.text()}`);
    });
    await page.locator('[data-test="call-start"]').click();

    const error = page.getByRole('alert').filter({ hasText: /^Call:/ });
    await expect.poll(() => error.innerText().catch(() => ''), SLOW).toMatch(/expired/i);
    const said = await error.innerText();
    // The secret was refused, not the key: nothing sends the user to Connections to fix a key that works.
    expect(said).toContain('The service refused the client secret (401)');
    expect(said).toContain('Start the call again: a new client secret is minted each time.');
    expect(said).not.toMatch(/API key was refused|Check the key/);
    expect(await error.getByRole('button', { name: 'Open Connections' }).count()).toBe(0);
    expect(rt.proxy.handshakes()).toHaveLength(2);
    // No call runs: the form is back, ready for another try.
    expect(await page.locator('[data-test="call-start"]').isVisible()).toBe(true);
    expect(await page.locator('[data-test="call-status"]').count()).toBe(0);
    await screenshot(page, 'realtime-secret-02-expired');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History', exact: true }).click();
    const row = page.getByRole('row').filter({ hasText: 'Realtime · call' }).first();
    await row.waitFor(SLOW);
    await row.getByRole('link').first().click();
    const session = page.getByRole('region', { name: 'Session' });
    await expect.poll(() => session.innerText().catch(() => ''), SLOW).toMatch(/expired/i);
    expect(await session.innerText()).toContain('The service refused the client secret (401)');
    expect(await session.innerText()).not.toContain('Check the key');
    await screenshot(page, 'realtime-secret-03-history');
  });
});
