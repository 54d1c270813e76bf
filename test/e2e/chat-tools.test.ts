/**
 * The tool loop as a user meets it in Chat: define a tool, ask something that makes the sandbox
 * call it, see the call with its arguments checked, answer it by hand, get the final answer, then
 * find the whole exchange in History. Then structured output shown as a checked tree, and the
 * logprobs view.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAppPage, openAppPage, outputOf, screenshot, type AppPage, type RunningApp } from './harness';

const PROMPT = 'What is the weather in Lisbon today? Please use get_weather.';
const SCHEMA = '{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}';
const REPLY = '{"city": "Lisbon", "sky": "sunny", "celsius": 23}';

describe('Chat tools in the browser', () => {
  let app: RunningApp;
  let page: Page;
  let opened: AppPage | undefined;

  const { output, status } = outputOf(() => page);
  const answerPanel = () => page.getByRole('region', { name: 'Answer tool calls' });

  beforeAll(async () => {
    opened = await openAppPage({ tokenDelayMs: 2, viewport: { width: 1400, height: 1000 } });
    ({ app, page } = opened);
  });

  afterAll(async () => {
    expect(await closeAppPage(opened)).toBe(0);
  });

  it('defines a tool; a malformed schema blocks Send with its position', async () => {
    await page.goto(app.url);
    await page.getByRole('link', { name: 'Chat' }).click();
    await page.getByRole('textbox', { name: 'Message 1' }).fill(PROMPT);
    const tools = page.getByRole('region', { name: 'Tools' });
    await tools.getByRole('button', { name: 'Add tool' }).click();
    await tools.getByRole('textbox', { name: 'Name' }).fill('get_weather');
    await tools.getByRole('textbox', { name: 'Description' }).fill('Current weather for a city');
    const params = tools.getByRole('textbox', { name: 'Parameters (JSON schema)' });
    await params.fill(SCHEMA.slice(0, -1));
    await expect.poll(() => page.getByText(/^Can't send: "get_weather" parameters: Not valid JSON/).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);
    await screenshot(page, 'chat-tools-01-bad-schema');
    await params.fill(SCHEMA);
    await expect.poll(() => page.getByRole('button', { name: 'Send', exact: true }).isEnabled()).toBe(true);
    expect(await tools.innerText()).toContain('1 / 128');
  });

  it('sends the prompt and the model calls the tool with arguments that match its schema', async () => {
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => answerPanel().isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await status().innerText()).toBe('completed');
    const panel = await answerPanel().innerText();
    expect(panel.toLowerCase()).toContain('the model called a tool');
    expect(panel).toContain('get_weather');
    expect(panel).toContain('Arguments match the get_weather schema.');
    expect(await output().innerText()).toContain('finish: tool_calls');
    await screenshot(page, 'chat-tools-02-tool-call');
  });

  it('explains a reply that is not JSON, then continues with a good reply to a final answer', async () => {
    const reply = answerPanel().getByRole('textbox', { name: 'Reply to get_weather' });
    await reply.fill('sunny, 23 degrees');
    await expect.poll(() => answerPanel().innerText()).toContain('The reply to get_weather is not valid JSON: Unexpected "s"');
    expect(await answerPanel().getByRole('button', { name: 'Send replies' }).isDisabled()).toBe(true);
    await reply.fill(REPLY);
    await answerPanel().getByRole('button', { name: 'Send replies' }).click();
    await expect.poll(() => answerPanel().isVisible(), { timeout: 10_000 }).toBe(false);
    await expect.poll(() => status().innerText(), { timeout: 30_000 }).toBe('completed');
    const final = await output().innerText();
    expect(final).not.toContain('finish: tool_calls');
    expect(final.length).toBeGreaterThan(40);
    // The conversation now holds the call and its answer.
    expect(await page.getByRole('region', { name: 'Conversation' }).locator('textarea').evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value))).toContain(REPLY);
    await screenshot(page, 'chat-tools-03-final-answer');
  });

  it('finds the continued run in History with the tool call and the reply it was sent', async () => {
    await page.getByRole('link', { name: 'History' }).click();
    const newest = page.getByRole('row').nth(1);
    await expect.poll(() => newest.innerText(), { timeout: 10_000 }).toContain('Lisbon');
    await newest.getByRole('link').click();
    await expect.poll(() => page.getByRole('button', { name: 'Open in playground' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => page.locator('main').innerText(), { timeout: 10_000 }).toContain('sunny');
    const entry = await page.locator('main').innerText();
    expect(entry).toContain(PROMPT);
    expect(entry).toContain('get_weather');
    expect(entry).toContain('completed');
    await screenshot(page, 'chat-tools-04-history');
  });

  it('shows a json_schema reply as a tree checked against the schema, and the logprobs of its tokens', async () => {
    await page.reload();
    await page.getByRole('link', { name: 'Chat' }).click();
    await page.getByRole('textbox', { name: 'Message 1' }).fill('Describe a city as JSON');
    await page.getByRole('button', { name: 'json_schema', exact: true }).click();
    await page.getByRole('textbox', { name: 'JSON schema' }).fill(
      '{"type": "object", "properties": {"city": {"type": "string"}, "population": {"type": "integer"}, "districts": {"type": "array", "items": {"type": "string"}}}, "required": ["city", "population", "districts"], "additionalProperties": false}',
    );
    await page.locator('label[for="param-logprobs"]').click();
    await page.locator('#param-top_logprobs').fill('3');
    await expect.poll(() => page.getByRole('button', { name: 'Send', exact: true }).isEnabled()).toBe(true);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => status().innerText(), { timeout: 30_000 }).toBe('completed');
    const tree = output().getByRole('tree', { name: 'Reply as a tree' });
    await expect.poll(() => tree.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await output().innerText()).toContain('Matches the schema.');
    expect(await tree.innerText()).toContain('population:');
    await screenshot(page, 'chat-tools-05-structured-tree');

    await output().getByRole('button', { name: 'Logprobs' }).click();
    const tokens = output().getByRole('group', { name: 'Tokens' });
    await expect.poll(() => tokens.isVisible()).toBe(true);
    await tokens.locator('.token').first().focus();
    await page.keyboard.press('ArrowRight');
    const detail = await output().getByRole('list', { name: 'Top alternatives' }).innerText();
    expect(detail).toContain('(chosen)');
    expect(detail.split('\n').filter((l) => l.trim())).toHaveLength(3);
    await screenshot(page, 'chat-tools-06-logprobs');
  });

  it('keeps the tool set when the app is restarted on the same data', async () => {
    const dataDir = app.dataDir;
    expect(await closeAppPage(opened, { keepData: true })).toBe(0);
    opened = await openAppPage({ tokenDelayMs: 2, dataDir, viewport: { width: 1400, height: 1000 } });
    ({ app, page } = opened);
    await page.goto(app.url);
    await page.getByRole('link', { name: 'Chat' }).click();
    const tools = page.getByRole('region', { name: 'Tools' });
    await expect.poll(() => tools.innerText(), { timeout: 10_000 }).toContain('1 / 128');
    expect(await tools.innerText()).toContain('get_weather');
  });
});
