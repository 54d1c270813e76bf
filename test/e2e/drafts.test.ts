/**
 * Unsent work survives: in every playground (Chat, Messages, Legacy, Responses with its open
 * chain, Compare's columns) a form filled and then reloaded at once (no pause: the page flushes
 * its draft as it goes) comes back as it was; "New" empties it and "Undo" brings it back; and
 * a second window on the same playground takes what is typed in the first; and after the host is
 * stopped and started again on the same data folder, or killed, every form is back too.
 */
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAppPage, openAppPage, removeDir, screenshot, startApp, type AppPage } from './harness';

const CHAT = { system: 'Answer as a lighthouse keeper', message: 'Is the lamp lit tonight?' };
const MESSAGES = 'Draft: where do puffins nest?';
const LEGACY = 'The harbour at dusk, in a draft, was';
const RESPONSES = { first: 'Name a river in Europe', next: 'Draft follow-up: and its source?' };
const COMPARE = { system: 'Be brief', user: 'Draft: compare three owls' };
const IMAGES = { prompt: 'Draft: give the gull a red hat', file: 'gull.png' };

/** A small green PNG, as a file a user drops. */
function gullPng(): Buffer {
  const png = new PNG({ width: 64, height: 48 });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([40, 160, 60, 255], i);
  return PNG.sync.write(png);
}

describe('drafts across reloads and restarts (browser mode)', () => {
  let opened: AppPage | undefined;
  let page: Page;

  const HEADINGS: Record<string, string> = { Legacy: 'Legacy completions' };
  /** Opens a playground and waits for its view: until its chunk loads, the previous view stays. */
  const nav = async (name: string): Promise<void> => {
    await page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: HEADINGS[name] ?? name, exact: true }).waitFor();
  };
  const value = (selector: string) => page.locator(selector).inputValue();
  const picker = () => page.getByRole('combobox', { name: 'Model' });

  async function chooseModel(id: string): Promise<void> {
    await expect.poll(() => picker().innerText(), { timeout: 10_000 }).toMatch(/svc-/);
    if ((await picker().innerText()) === id) return;
    await picker().click();
    await page.getByRole('option', { name: new RegExp(`^${id}`) }).first().click();
    await expect.poll(() => picker().innerText()).toBe(id);
  }

  async function open(url: string): Promise<void> {
    await page.goto(url);
    await page.getByText('Sandbox — synthetic outputs').first().waitFor({ timeout: 20_000 });
  }

  /** New empties the form (checked by `isEmpty`), Undo brings it back (checked by `isBack`). */
  /** Ends the host with `end` (a clean stop or a kill), starts it again on the same data folder and opens it. */
  async function restart(end: () => Promise<unknown>): Promise<void> {
    const dataDir = opened!.app.dataDir;
    await end();
    try {
      opened!.app = await startApp({ dataDir, tokenDelayMs: 2 });
    } catch (error) {
      removeDir(dataDir);
      throw error;
    }
    await open(opened!.app.url);
  }

  async function newThenUndo(isEmpty: () => Promise<boolean>, isBack: () => Promise<boolean>): Promise<void> {
    await page.getByRole('button', { name: 'New', exact: true }).click();
    await expect.poll(isEmpty).toBe(true);
    await expect.poll(() => page.getByText('New form started.').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await expect.poll(isBack).toBe(true);
  }

  beforeAll(async () => {
    opened = await openAppPage({ tokenDelayMs: 2, viewport: { width: 1400, height: 1100 } });
    page = opened.page;
    await open(opened.app.url);
  });

  afterAll(async () => {
    expect(await closeAppPage(opened)).toBe(0);
  });

  it('Chat: model, system prompt, message and a parameter come back after an immediate reload; New and Undo', async () => {
    await nav('Chat');
    await chooseModel('svc-4-fast');
    await page.locator('#system-prompt').fill(CHAT.system);
    await page.getByRole('textbox', { name: 'Message 1' }).fill(CHAT.message);
    await page.locator('#param-temperature').click();
    await page.locator('#param-temperature').pressSequentially('0.3');
    await page.locator('#param-temperature').press('Tab');
    await page.reload();
    await expect.poll(() => value('#system-prompt'), { timeout: 10_000 }).toBe(CHAT.system);
    expect(await page.getByRole('textbox', { name: 'Message 1' }).inputValue()).toBe(CHAT.message);
    expect(await value('#param-temperature')).toBe('0.3');
    await expect.poll(() => picker().innerText()).toBe('svc-4-fast');
    await screenshot(page, 'drafts-01-chat-restored');

    const message = () => page.getByRole('textbox', { name: 'Message 1' }).inputValue();
    await newThenUndo(async () => (await message()) === '' && (await value('#system-prompt')) === '', async () => (await message()) === CHAT.message);
    // What Undo brought back is kept again.
    await page.reload();
    await expect.poll(message, { timeout: 10_000 }).toBe(CHAT.message);
  });

  it('Messages: the message typed right after choosing a model is kept, and back after a reload', async () => {
    await nav('Messages');
    await chooseModel('svc-3-mini');
    const message = page.getByRole('textbox', { name: 'Message 1' });
    await message.fill(MESSAGES);
    await expect.poll(() => page.getByRole('button', { name: 'Send' }).isEnabled()).toBe(true);
    expect(await message.inputValue()).toBe(MESSAGES);
    await page.reload();
    await expect.poll(() => message.inputValue(), { timeout: 10_000 }).toBe(MESSAGES);
    await expect.poll(() => picker().innerText()).toBe('svc-3-mini');
    await newThenUndo(async () => (await message.inputValue()) === '', async () => (await message.inputValue()) === MESSAGES);
  });

  it('Legacy: the completions prompt comes back after a reload; New and Undo', async () => {
    await nav('Legacy');
    const prompt = page.locator('#completions-prompt-1');
    await prompt.fill(LEGACY);
    await page.reload();
    await expect.poll(() => prompt.inputValue(), { timeout: 10_000 }).toBe(LEGACY);
    await newThenUndo(async () => (await prompt.inputValue()) !== LEGACY, async () => (await prompt.inputValue()) === LEGACY);
  });

  it('Responses: the open chain, its selected node and the next input come back after a reload', async () => {
    await nav('Responses');
    const input = page.locator('#responses-input');
    await input.fill(RESPONSES.first);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => page.getByRole('treeitem').count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => page.getByRole('region', { name: 'Output' }).locator('.run-status').innerText(), { timeout: 30_000 }).toBe('completed');
    await input.fill(RESPONSES.next);
    await page.reload();
    await expect.poll(() => input.inputValue(), { timeout: 10_000 }).toBe(RESPONSES.next);
    await expect.poll(() => page.getByRole('treeitem').count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByRole('treeitem').first().getAttribute('aria-selected')).toBe('true');
    // Send continues the chain, as before the reload.
    expect(await page.getByRole('button', { name: 'Continue', exact: true }).isVisible()).toBe(true);
    await screenshot(page, 'drafts-02-responses-restored');
    await newThenUndo(
      async () => (await input.inputValue()) === '' && (await page.getByRole('button', { name: 'Send', exact: true }).isVisible()),
      async () => (await input.inputValue()) === RESPONSES.next && (await page.getByRole('button', { name: 'Continue', exact: true }).isVisible()),
    );
  });

  it('Compare: the prompt and a third column come back after a reload; New and Undo', async () => {
    await nav('Compare');
    await expect.poll(() => page.getByRole('region', { name: /^Column \d$/ }).count()).toBe(2);
    await page.locator('#compare-system').fill(COMPARE.system);
    await page.locator('#compare-user').fill(COMPARE.user);
    await page.getByRole('button', { name: 'Add column' }).click();
    await expect.poll(() => page.getByRole('region', { name: /^Column \d$/ }).count()).toBe(3);
    await page.reload();
    await expect.poll(() => value('#compare-user'), { timeout: 10_000 }).toBe(COMPARE.user);
    expect(await value('#compare-system')).toBe(COMPARE.system);
    expect(await page.getByRole('region', { name: /^Column \d$/ }).count()).toBe(3);
    await newThenUndo(async () => (await value('#compare-user')) === '', async () => (await value('#compare-user')) === COMPARE.user);
  });

  it('a second window showing the same playground takes the draft typed in the first', async () => {
    await nav('Messages');
    const other = await opened!.browser.newPage({ viewport: { width: 1400, height: 1100 } });
    try {
      await other.goto(opened!.app.url);
      await other.getByRole('navigation').getByRole('link', { name: 'Messages', exact: true }).click();
      await other.getByRole('heading', { level: 1, name: 'Messages', exact: true }).waitFor();
      const theirs = other.getByRole('textbox', { name: 'Message 1' });
      await expect.poll(() => theirs.inputValue(), { timeout: 10_000 }).toBe(MESSAGES);
      await page.getByRole('textbox', { name: 'Message 1' }).fill(`${MESSAGES} (edited in the first window)`);
      await expect.poll(() => theirs.inputValue(), { timeout: 10_000 }).toBe(`${MESSAGES} (edited in the first window)`);
      expect(await other.getByText('Updated from another window.').isVisible()).toBe(true);
      await screenshot(other, 'drafts-03-second-window');
      // Back as it was, for the restart below.
      await theirs.fill(MESSAGES);
      await expect.poll(() => page.getByRole('textbox', { name: 'Message 1' }).inputValue(), { timeout: 10_000 }).toBe(MESSAGES);
    } finally {
      await other.close();
    }
  });

  it('Images: a dropped image and the prompt are the draft (the image kept in the gallery, not as a staged file)', async () => {
    await nav('Images');
    const b64 = gullPng().toString('base64');
    await page.evaluate(`(() => {
      const bytes = Uint8Array.from(atob(${JSON.stringify(b64)}), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], ${JSON.stringify(IMAGES.file)}, { type: 'image/png' }));
      const target = document.querySelector('.images-view') ?? document.body;
      for (const type of ['dragenter', 'dragover', 'drop']) target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }));
    })()`);
    await expect.poll(() => page.locator('img.input-thumb').count(), { timeout: 20_000 }).toBe(1);
    await page.locator('#images-prompt').fill(IMAGES.prompt);
    await page.reload();
    await expect.poll(() => value('#images-prompt'), { timeout: 10_000 }).toBe(IMAGES.prompt);
    await expect.poll(() => page.locator('img.input-thumb').count(), { timeout: 10_000 }).toBe(1);
  });

  it('after the host restarts on the same data folder, every playground has its draft', async () => {
    await restart(async () => expect(await opened!.app.stop()).toBe(0));
    await nav('Chat');
    await expect.poll(() => page.getByRole('textbox', { name: 'Message 1' }).inputValue(), { timeout: 10_000 }).toBe(CHAT.message);
    expect(await value('#system-prompt')).toBe(CHAT.system);
    await nav('Messages');
    await expect.poll(() => page.getByRole('textbox', { name: 'Message 1' }).inputValue()).toBe(MESSAGES);
    await nav('Legacy');
    await expect.poll(() => value('#completions-prompt-1')).toBe(LEGACY);
    await nav('Responses');
    await expect.poll(() => value('#responses-input')).toBe(RESPONSES.next);
    await expect.poll(() => page.getByRole('treeitem').count(), { timeout: 10_000 }).toBe(1);
    await nav('Compare');
    await expect.poll(() => value('#compare-user')).toBe(COMPARE.user);
    expect(await page.getByRole('region', { name: /^Column \d$/ }).count()).toBe(3);
    await screenshot(page, 'drafts-04-compare-after-restart');
    // The dropped image shows its picture and is still sent: main forgot its staged files when it stopped.
    await nav('Images');
    await expect.poll(() => value('#images-prompt')).toBe(IMAGES.prompt);
    const thumb = page.locator('img.input-thumb');
    await expect.poll(() => thumb.evaluate((img) => (img as unknown as { complete: boolean; naturalWidth: number }).complete && (img as unknown as { naturalWidth: number }).naturalWidth > 0), { timeout: 10_000 }).toBe(true);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const results = page.getByRole('region', { name: 'Results' });
    await expect.poll(() => results.locator('img').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    await screenshot(page, 'drafts-05-images-after-restart');
  });

  it('after the host is killed (a crash) a moment after typing paused, the draft is back', async () => {
    await nav('Chat');
    const crashed = 'Typed just before the crash';
    await page.getByRole('textbox', { name: 'Message 1' }).fill(crashed);
    // No page event flushes here: the debounced save (400 ms) is what reaches the database.
    await page.waitForTimeout(1_000);
    await restart(() => opened!.app.crash());
    await nav('Chat');
    await expect.poll(() => page.getByRole('textbox', { name: 'Message 1' }).inputValue(), { timeout: 10_000 }).toBe(crashed);
  });
});
