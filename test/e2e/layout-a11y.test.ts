/**
 * Layout and accessibility of the built app (browser mode, sandbox) as a user meets it:
 * a 200 KB paste keeps Send in view and its History entry stays short; at 900 px the nav shows
 * icons, the parameters open in a drawer, four choices wrap instead of being cut and History's
 * prompts keep their room; answers copy as markdown and as text through the real clipboard; the
 * icon font is loaded. Then, at 900×700 and 1280×800, light and dark, every view (with content: a
 * chain, runs, a Compare run, a shared file; and the two dialogs) fits the window with no
 * sideways scrolling, none inside its tables either, and axe-core finds no serious or critical
 * violation. A screenshot of each is kept in test-results/screenshots/layout-a11y/.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAppPage, openAppPage, ROOT, type AppPage, type RunningApp } from './harness';
import { NAV_ENTRIES } from '../../shared/families';

// Page code below runs in Chromium; this file is type-checked without the DOM library, so the
// page globals it touches are declared loosely here, in this module's scope only.
declare const document: any;
declare const window: any;
declare const navigator: any;
declare const innerWidth: number;
declare function getComputedStyle(element: any): any;
type HTMLElement = any;

const SHOTS = join(ROOT, 'test-results', 'screenshots', 'layout-a11y');
const AXE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
/** Every view of the nav, as it lists them. */
const NAV = NAV_ENTRIES.map((entry) => entry.label);
const SIZES = [
  { width: 900, height: 700 },
  { width: 1280, height: 800 },
] as const;

/** A 200 KB paste: prose, so it wraps like a real document would. */
const PASTE = 'The estuary tide rises twice a day and the river meets the sea. '.repeat(3200);

interface Overflow {
  page: number;
  window: number;
  main: number;
  mainWidth: number;
  /** Elements inside the view that scroll sideways (tables, grids): class and widths. */
  scrollers: string[];
}

describe('Layout and accessibility in the browser', () => {
  let app: RunningApp;
  let page: Page;
  let opened: AppPage | undefined;

  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
  const status = () => page.getByRole('region', { name: 'Output' }).first().locator('.run-status');

  async function overflow(): Promise<Overflow> {
    return page.evaluate(() => {
      const main = document.querySelector('.app-main')!;
      const scrollers = [...(main.querySelectorAll('*') as HTMLElement[])]
        .filter((el) => {
          const x = getComputedStyle(el).overflowX;
          // Code blocks scroll sideways by design; everything else must fit.
          return (x === 'auto' || x === 'scroll') && el.scrollWidth > el.clientWidth + 1 && !el.closest('pre, .md-code');
        })
        .map((el) => `${el.className.toString().slice(0, 60)} ${el.scrollWidth}>${el.clientWidth}`);
      return { page: document.documentElement.scrollWidth, window: innerWidth, main: main.scrollWidth, mainWidth: main.clientWidth, scrollers };
    });
  }

  async function seriousViolations(): Promise<string[]> {
    if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE });
    return page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[]; failureSummary?: string }> }> }> } }).axe;
      const result = await axe.run(document, { resultTypes: ['violations'] });
      return result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id}: ${n.target.join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 200)}`));
    });
  }

  async function openView(name: string): Promise<void> {
    if (name === 'Connections' || name === 'Keyboard shortcuts') {
      await page.getByRole('button', { name, exact: true }).click();
      await page.getByRole('dialog').waitFor();
    } else if (name === 'History entry') {
      await nav('History').click();
      await page.locator('.prompt-link').first().click();
      await page.getByRole('region', { name: 'Inspector' }).waitFor();
    } else {
      await nav(name).click();
      await page.locator('.view h1').first().waitFor();
    }
    // Let lazy data (catalogue, lists) arrive and transitions settle before measuring.
    await page.waitForLoadState('networkidle').catch(() => undefined);
    await page.waitForTimeout(500);
  }

  async function setTheme(theme: 'light' | 'dark'): Promise<void> {
    const dark = await page.evaluate(() => document.documentElement.classList.contains('app-dark'));
    if (dark !== (theme === 'dark')) await page.getByRole('button', { name: theme === 'dark' ? 'Dark theme' : 'Light theme' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('app-dark'))).toBe(theme === 'dark');
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    opened = await openAppPage({ tokenDelayMs: 2, viewport: SIZES[1] });
    app = opened.app;
    // axe is added as a script tag; the app's CSP (script-src 'self') would refuse it.
    const context = await opened.browser.newContext({ viewport: SIZES[1], bypassCSP: true, colorScheme: 'light' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(app.url).origin });
    await opened.page.close();
    page = await context.newPage();
    opened.page = page;
    await page.goto(app.url);
    await page.getByText('Sandbox — synthetic outputs').first().waitFor({ timeout: 30_000 });
  });

  afterAll(() => closeAppPage(opened));

  it('keeps Send in view after a 200 KB paste, and folds it in the History entry', async () => {
    await nav('Chat').click();
    const message = page.getByRole('textbox', { name: 'Message 1' });
    await message.fill(PASTE);
    const box = (await message.boundingBox())!;
    // The text area stops at 40vh and scrolls inside.
    expect(box.height).toBeLessThanOrEqual(0.4 * SIZES[1].height + 2);
    expect(await message.evaluate((el) => el.scrollHeight > el.clientHeight * 10)).toBe(true);
    const send = page.getByRole('button', { name: 'Send' });
    const sendBox = (await send.boundingBox())!;
    expect(sendBox.y).toBeGreaterThanOrEqual(0);
    expect(sendBox.y + sendBox.height).toBeLessThanOrEqual(SIZES[1].height);

    await send.click();
    await expect.poll(() => status().innerText(), { timeout: 60_000 }).toBe('completed');

    await openView('History entry');
    const height = await page.evaluate(() => document.querySelector('.app-main')!.scrollHeight);
    expect(height).toBeLessThan(4000);
    await expect.poll(() => page.getByRole('button', { name: 'Show all of the conversation sent' }).isVisible()).toBe(true);
    // The inspector renders the start of the 200 KB request body and offers the rest.
    const body = page.getByLabel('Request body');
    expect((await body.innerText()).length).toBeLessThan(21_000);
    await expect.poll(() => page.getByRole('button', { name: /^Show all \([\d,]+ more characters\)$/ }).isVisible()).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'history-entry-200kb.png') });
  });

  it('fills the views a first session would (a Responses chain, a Messages run copied as markdown and text, a Compare run, a shared file)', async () => {
    // Audited with content, not only empty: trees, event timelines and table rows are where
    // widths and names go wrong.
    await nav('Responses').click();
    await page.locator('#responses-input').fill('Why do estuaries have two tides a day?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => page.getByRole('treeitem').count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => status().innerText(), { timeout: 30_000 }).toBe('completed');

    await nav('Messages').click();
    const message = page.getByRole('textbox', { name: 'Message 1' });
    await expect.poll(() => page.getByRole('combobox', { name: 'Model' }).innerText(), { timeout: 10_000 }).toMatch(/svc-/);
    await message.fill('Summarise how a tidal bore forms.');
    await expect.poll(() => page.getByRole('button', { name: 'Send' }).isEnabled(), { timeout: 10_000 }).toBe(true);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => status().innerText(), { timeout: 30_000 }).toBe('completed');

    // The answer copies as its markdown source and as the text a reader sees.
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    await page.getByRole('button', { name: 'Copy answer as markdown' }).click();
    await expect.poll(clipboard).toMatch(/\*\*\w/);
    const markdown = await clipboard();
    await page.getByRole('button', { name: 'Copy answer as plain text' }).click();
    await expect.poll(clipboard).not.toBe(markdown);
    expect(await clipboard()).not.toContain('**');
    expect((await clipboard()).length).toBeGreaterThan(40);

    await nav('Compare').click();
    await page.getByRole('textbox', { name: 'User' }).fill('Explain how tides work near river estuaries');
    await expect.poll(() => page.getByRole('button', { name: 'Run all' }).isEnabled(), { timeout: 10_000 }).toBe(true);
    await page.getByRole('button', { name: 'Run all' }).click();
    for (const n of [1, 2]) await expect.poll(() => page.locator(`[data-column="${n}"] .run-status`).innerText(), { timeout: 60_000 }).toBe('completed');

    await nav('Files').click();
    await page.getByText('Drop files anywhere on this page').first().waitFor();
    const name = `tide-tables-for-the-severn-estuary-${'and-its-tributaries-'.repeat(4)}2026.csv`;
    await page.locator('input[type="file"]').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from('time,height\n06:12,9.8\n') });
    await expect.poll(() => page.getByText('uploaded', { exact: true }).count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => page.locator('.file-table').getByText(name).count(), { timeout: 10_000 }).toBe(1);
    // Shared (the Share menu asks for how long), so the row shows its "Shared…" menu.
    // The list refreshes once after an upload; a menu opened from the row before that closes with it.
    const untilRevoked = page.getByRole('menuitem', { name: 'Until revoked' });
    await expect
      .poll(async () => {
        if (!(await untilRevoked.isVisible())) await page.getByRole('button', { name: /^Share / }).click();
        return untilRevoked.isVisible();
      }, { timeout: 10_000 })
      .toBe(true);
    await untilRevoked.click();
    await expect.poll(() => page.getByRole('button', { name: /^Shared public URL of / }).count(), { timeout: 10_000 }).toBe(1);
  });

  it('at 900 px shows the nav as icons, the parameters in a drawer, and four choices without cutting them', async () => {
    await page.setViewportSize(SIZES[0]);
    await nav('Chat').click();
    await expect.poll(() => page.getByRole('navigation', { name: 'Main' }).getAttribute('data-collapsed')).toBe('true');
    // An aside (complementary) beside the form; a modal dialog while open as a drawer.
    const drawer = page.locator('aside[aria-label="Model and parameters"]');
    expect(await drawer.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Model and parameters' }).click();
    await expect.poll(() => drawer.isVisible()).toBe(true);
    await drawer.locator('#param-n').fill('4');
    await drawer.locator('#param-n').press('Tab');
    expect(await seriousViolations()).toEqual([]);
    await page.screenshot({ path: join(SHOTS, '900-light-chat-drawer.png') });
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.isVisible()).toBe(false);

    await page.getByRole('textbox', { name: 'Message 1' }).fill('How do tides move up a river estuary?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => status().innerText(), { timeout: 60_000 }).toBe('completed');
    const choices = page.getByRole('article', { name: /^Choice \d$/ });
    expect(await choices.count()).toBe(4);
    for (const choice of await choices.all()) {
      const b = (await choice.boundingBox())!;
      expect(b.x + b.width).toBeLessThanOrEqual(SIZES[0].width);
    }
    expect((await overflow()).scrollers).toEqual([]);
    await page.screenshot({ path: join(SHOTS, '900-light-chat-choices.png') });

    // History keeps room for the prompt: the other columns share the rest in proportion.
    await openView('History');
    const prompt = (await page.locator('.prompt-link').first().locator('xpath=ancestor::td').boundingBox())!;
    expect(prompt.width).toBeGreaterThan(250);
  });

  it("shows the icon of Compare's Remove column button (the icon font is bundled)", async () => {
    await openView('Compare');
    await page.getByRole('button', { name: 'Add column' }).click();
    const remove = page.getByRole('button', { name: /Remove column/ }).first();
    const icon = remove.locator('.pi');
    expect(await icon.evaluate((el) => getComputedStyle(el).fontFamily)).toContain('primeicons');
    // The app declares the font and the browser has loaded it (without it the button drew an empty circle).
    const loaded = () =>
      page.evaluate(async () => {
        await document.fonts.ready;
        return [...document.fonts].filter((f) => f.family.replace(/["']/g, '') === 'primeicons').map((f) => f.status);
      });
    await expect.poll(loaded).toContain('loaded');
    expect((await icon.boundingBox())!.width).toBeGreaterThan(8);
  });

  for (const size of SIZES) {
    for (const theme of ['light', 'dark'] as const) {
      it(`fits every view in ${size.width}×${size.height} with no serious accessibility violation (${theme})`, async () => {
        await page.setViewportSize(size);
        await setTheme(theme);
        const problems: string[] = [];
        for (const view of [...NAV, 'History entry', 'Connections', 'Keyboard shortcuts']) {
          await openView(view);
          const o = await overflow();
          if (o.page > o.window || o.main > o.mainWidth || o.scrollers.length) problems.push(`${view}: ${JSON.stringify(o)}`);
          const slug = view.toLowerCase().replace(/\s+/g, '-');
          await page.screenshot({ path: join(SHOTS, `${size.width}-${theme}-${slug}.png`) });
          for (const v of await seriousViolations()) problems.push(`${view}: ${v}`);
          if (await page.getByRole('dialog').count()) {
            await page.keyboard.press('Escape');
            await page.getByRole('dialog').waitFor({ state: 'detached' });
          }
        }
        expect(problems).toEqual([]);
      }, 240_000);
    }
  }
});
