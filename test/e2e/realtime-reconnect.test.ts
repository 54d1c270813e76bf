/**
 * A realtime call whose connection drops, as a user meets it, in Chromium against the app in
 * browser mode and a sandbox of the test's own behind a TCP proxy (destroying its sockets is the
 * network dropping mid-call, no close frame). Two turns are said; the socket drops; the console
 * says so at once (long before a keep-alive would notice) and keeps the transcript; nothing can be
 * said until Reconnect; Reconnect opens a new socket whose first messages seed the conversation back
 * from the transcript (both sides, in order), and the model answers the next turn.
 */


import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './harness';
import { hangUp, logJson, logRows, openConsole, say, silenceWav, SLOW, startCall, transcript } from './realtime-helpers';
import { useRealtimeApp } from './realtime-app';

/** Well under the keep-alive (20 s pings): a reset socket is seen when it happens. */
const AT_ONCE = { timeout: 10_000 };

type Sent = { type: string; item?: { type?: string; role?: string; content?: Array<{ type: string; text?: string }> } };

describe('Realtime call: a dropped connection and Reconnect (browser mode)', () => {
  const key = 'sk-e2e-realtime-drop';
  const rt = useRealtimeApp({ key, name: 'drop', mic: () => silenceWav(2), proxy: true, height: 1400 });
  let page: Page;
  beforeAll(() => void (page = rt.page));

  it('the drop is said at once with the transcript kept; Reconnect seeds the conversation back and the model answers the next turn', async () => {
    await openConsole(page);
    await startCall(page);
    await say(page, 'Say the code word is pelican.');
    await expect.poll(() => transcript(page, 'assistant'), SLOW).toEqual([expect.stringMatching(/the code word is pelican/i)]);
    await say(page, 'Say the harbour is quiet tonight.');
    await expect.poll(() => transcript(page, 'assistant'), SLOW).toHaveLength(2);
    const before = { user: await transcript(page, 'user'), assistant: await transcript(page, 'assistant') };
    expect(before.user).toEqual(['Say the code word is pelican.', 'Say the harbour is quiet tonight.']);
    expect(before.assistant[1]).toMatch(/the harbour is quiet tonight/i);
    expect(await logRows(page, 'session.created')).toEqual(['← session.created']);

    // The network drops.
    rt.proxy.drop();
    await expect.poll(() => page.locator('[data-test="call-status"]').innerText(), AT_ONCE).toBe('Connection dropped');
    const alert = page.locator('[data-test="call-dropped"]');
    expect(await alert.innerText()).toContain('The connection dropped.');
    expect(await alert.innerText()).toContain('The transcript and log so far are kept.');
    expect(await transcript(page, 'user')).toEqual(before.user);
    expect(await transcript(page, 'assistant')).toEqual(before.assistant);
    await screenshot(page, 'realtime-reconnect-01-dropped');

    // Nothing can be said on a dropped call; the console says what to do.
    await say(page, 'Hello?');
    await expect.poll(() => page.getByRole('alert').filter({ hasText: /^Call:/ }).innerText().catch(() => ''), SLOW).toContain('reconnect first');

    await page.locator('[data-test="call-reconnect"]').click();
    await expect.poll(() => page.locator('[data-test="call-status"]').innerText(), SLOW).toBe('Live');
    expect(await page.locator('[data-test="call-dropped"]').count()).toBe(0);
    // Once reconnected, neither the drop nor the refusal said while dropped is shown as a live problem.
    expect(await page.locator('[data-test="call-error"]').count()).toBe(0);
    expect(await page.getByRole('alert').filter({ hasText: /^Call:/ }).count()).toBe(0);
    expect(rt.proxy.handshakes()).toHaveLength(2);
    await expect.poll(() => logRows(page, 'session.created'), SLOW).toEqual(['← session.created', '← session.created']);

    // The new socket was seeded with the conversation so far: both sides, in order.
    const sent = (await logJson(page, 'conversation.item.create')).map((j) => JSON.parse(j) as Sent).filter((m) => m.type === 'conversation.item.create');
    const seeded = sent.slice(2).map((m) => `${m.item?.role}: ${(m.item?.content ?? []).map((c) => c.text ?? '').join('')}`);
    expect(seeded).toEqual([`user: ${before.user[0]}`, `assistant: ${before.assistant[0]}`, `user: ${before.user[1]}`, `assistant: ${before.assistant[1]}`]);

    // The next turn is answered on the new socket; the transcript goes on after the earlier turns.
    await say(page, 'Say we are back on the line.');
    await expect.poll(() => transcript(page, 'assistant'), SLOW).toHaveLength(3);
    expect(await transcript(page, 'assistant')).toEqual([...before.assistant, expect.stringMatching(/we are back on the line/i)]);
    expect(await transcript(page, 'user')).toEqual([...before.user, 'Say we are back on the line.']);
    // Three turns, each answered (the message refused while dropped started none).
    await expect.poll(() => page.locator('[data-test="turn-first-audio"] b').allInnerTexts(), SLOW).toEqual([expect.stringMatching(/^\d+(\.\d+)? (ms|s)$/), expect.stringMatching(/^\d/), expect.stringMatching(/^\d/)]);
    await page.locator('[data-test="log-filter-text"]').fill('');
    await screenshot(page, 'realtime-reconnect-02-reconnected');
    await hangUp(page);
  });
});
