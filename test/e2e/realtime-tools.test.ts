/**
 * Tools on a realtime call as a user meets them, in Chromium against the app in browser mode and a
 * sandbox of the test's own: a tool defined in the console's tools panel with a saved reply,
 * answered by the auto-responder in main; a typed question that names it makes the model call it;
 * the call and its output are in the event log (the arguments received, our function_call_output
 * sent with the saved reply) and the model's spoken answer uses the output. Then the auto-responder
 * with an injected error (a tool that throws): the console says which tool failed and why, the
 * model is given the error, and History's entry of the call says it too.
 */



import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './harness';
import { hangUp, logJson, logRows, openConsole, openSection, say, silenceWav, SLOW, startCall, transcript } from './realtime-helpers';
import { useRealtimeApp } from './realtime-app';

const SCHEMA = JSON.stringify({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
const REPLY = JSON.stringify({ temperature_c: 21, sky: 'sunny' });
const FAILURE = 'The weather service is down for maintenance.';

describe('Realtime call: tools answered by the auto-responder (browser mode)', () => {
  const key = 'sk-e2e-realtime-tools';
  const rt = useRealtimeApp({ key, name: 'tools', mic: () => silenceWav(2), height: 1400 });
  let page: Page;
  beforeAll(() => void (page = rt.page));

  it('a question naming the tool: the call and its saved reply are in the log, the spoken answer uses it', async () => {
    await openConsole(page);
    await openSection(page, 'details.tools');
    const tools = page.getByRole('region', { name: 'Tools' });
    await tools.getByRole('button', { name: 'Add tool' }).click();
    await tools.getByRole('textbox', { name: 'Name' }).fill('get_weather');
    await tools.getByRole('textbox', { name: 'Description' }).fill('Current weather for a city');
    await tools.getByRole('textbox', { name: 'Parameters (JSON schema)' }).fill(SCHEMA);
    await tools.getByRole('textbox', { name: /^Saved reply/ }).fill(REPLY);
    await expect.poll(() => page.locator('details.tools > summary').innerText(), { timeout: 10_000 }).toBe('Tools (1, 1 with a saved reply)');
    expect(await page.locator('[data-test="auto-on"]').isChecked()).toBe(true);

    await startCall(page);
    await say(page, 'Can you get weather for Lisbon, please?');
    const model = () => transcript(page, 'assistant');
    await expect.poll(model, SLOW).toEqual([expect.stringContaining('The get weather tool says: temperature c 21, sky sunny.')]);

    // The event log: the model's call (its arguments, for Lisbon) and our answer with the saved reply.
    expect(await logRows(page, 'function_call_arguments')).toEqual(expect.arrayContaining([expect.stringMatching(/^← response\.function_call_arguments\.delta( ×\d+)?$/), '← response.function_call_arguments.done']));
    const [done] = await logJson(page, 'function_call_arguments.done');
    expect(JSON.parse(done)).toMatchObject({ name: 'get_weather' });
    expect(JSON.parse(JSON.parse(done).arguments)).toEqual({ city: 'Lisbon' });
    const items = (await logJson(page, 'conversation.item.create')).map((j) => JSON.parse(j) as { type: string; item?: { type: string; output?: string; call_id?: string } });
    const answer = items.find((m) => m.type === 'conversation.item.create' && m.item?.type === 'function_call_output');
    expect(answer?.item).toMatchObject({ output: REPLY, call_id: JSON.parse(done).call_id });
    // Answered by main with no manual answer asked for: no pending call is left in the console.
    expect(await page.locator('[data-test="tool-call"]').count()).toBe(0);
    expect(await page.locator('[data-test="call-error"]').count()).toBe(0);
    await page.locator('[data-test="log-filter-text"]').fill('');
    await screenshot(page, 'realtime-tools-01-saved-reply');
    await hangUp(page);
  });

  it('a tool that throws (the injected error): said in the console and in History, the model told', async () => {
    // On its own even when the test before stopped mid-call.
    if (await page.locator('[data-test="call-hangup"]').isVisible()) await hangUp(page);
    // The form is back as it was (the tool kept in main); its tools section opens again.
    await openSection(page, 'details.tools');
    expect(await page.locator('details.tools > summary').innerText()).toBe('Tools (1, 1 with a saved reply)');
    await page.locator('[data-test="reply-error"]').fill(FAILURE);
    await startCall(page);
    await say(page, 'Can you get weather for Lisbon, please?');
    const why = `The tool get_weather failed (auto-responder): ${FAILURE} The model was given the error as the tool's output.`;
    await expect.poll(() => page.locator('[data-test="call-error"]').innerText().catch(() => ''), SLOW).toContain(why);
    // The model was given the error as the output and says so.
    await expect.poll(() => transcript(page, 'assistant'), SLOW).toEqual([expect.stringContaining(`The get weather tool says: error ${FAILURE.replace(/\.$/, '')}`)]);
    const items = (await logJson(page, 'conversation.item.create')).map((j) => JSON.parse(j) as { item?: { type: string; output?: string } });
    expect(items.find((m) => m.item?.type === 'function_call_output')?.item?.output).toBe(JSON.stringify({ error: FAILURE }));
    await page.locator('[data-test="log-filter-text"]').fill('');
    await screenshot(page, 'realtime-tools-02-tool-error');
    await hangUp(page);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History', exact: true }).click();
    const row = page.getByRole('row').filter({ hasText: 'Realtime · call' }).first();
    await row.waitFor(SLOW);
    await row.getByRole('link').first().click();
    await expect.poll(() => page.locator('[data-test="session-problems"]').innerText().catch(() => ''), SLOW).toContain(why);
    await screenshot(page, 'realtime-tools-03-history');
  });
});
