/**
 * Layout and accessibility of the built app (browser mode, sandbox) as a user meets it:
 * a 200 KB paste keeps Send in view and its History entry stays short; at 900 px the nav shows
 * icons, the parameters open in a drawer, four choices wrap instead of being cut and History's
 * prompts keep their room; answers copy as markdown and as text through the real clipboard; the
 * icon font is loaded. Then, at 900×700 and 1280×800, light and dark, every view (with content: a
 * chain, runs, a Compare run, a shared file; and the two dialogs) fits the window with no
 * sideways scrolling, none inside its tables either, and axe-core finds no serious or critical
 * violation, and no view sits under an overlay (a drop hint) with nothing dragged; a file
 * dragged over Images, Videos or the Gallery shows theirs. The header's notice (a refused token)
 * has a row of its own, read whole, at both widths. A screenshot of each is kept in
 * test-results/screenshots/layout-a11y/.
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
  /**
   * Opens a view and waits for its heading: until its chunk loads the previous view stays on
   * screen, and Chat also has a "Model" picker and a "Message 1" box to type into by mistake.
   */
  async function go(name: string): Promise<void> {
    await nav(name).click();
    const entry: { label: string; title?: string } = NAV_ENTRIES.find((e) => e.label === name)!;
    const names = [entry.label, ...(entry.title ? [entry.title] : [])].map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    await page.getByRole('heading', { level: 1, name: new RegExp(`^(${names.join('|')})$`) }).waitFor();
  }

  /**
   * Layers over the view that are not a dialog: positioned, visible, painted, covering at least 40%
   * of the main area, and either letting clicks through (a picture over the view, as a drop hint is) or
   * named as an overlay. The Videos view once sat under its form's hint, styled as the drag overlay.
   */
  async function coveringLayers(): Promise<string[]> {
    return page.evaluate(() => {
      const m = document.querySelector('.app-main')!.getBoundingClientRect();
      const area = m.width * m.height;
      return [...(document.body.querySelectorAll('*') as HTMLElement[])]
        .filter((el) => {
          const st = getComputedStyle(el);
          if (st.position !== 'absolute' && st.position !== 'fixed') return false;
          if (st.display === 'none' || st.visibility === 'hidden' || Number(st.opacity) === 0) return false;
          if (el.closest('[role="dialog"], .p-dialog-mask, .p-drawer-mask, .p-toast')) return false;
          const r = el.getBoundingClientRect();
          const w = Math.max(0, Math.min(r.right, m.right) - Math.max(r.left, m.left));
          const h = Math.max(0, Math.min(r.bottom, m.bottom) - Math.max(r.top, m.top));
          // Painted: a virtual scroller's spacer is positioned and large too, but draws nothing.
          const painted = !/^(transparent|rgba\(0, 0, 0, 0\))$/.test(st.backgroundColor) || st.backgroundImage !== 'none' || parseFloat(st.borderTopWidth) > 0;
          return w * h >= 0.4 * area && painted && (st.pointerEvents === 'none' || /overlay|drop|mask/i.test(el.className.toString()));
        })
        .map((el) => `${el.tagName.toLowerCase()}.${el.className.toString().trim().replace(/\s+/g, '.')} "${(el.textContent ?? '').trim().slice(0, 60)}"`);
    });
  }

  /** Drags a file over the view (dragenter, dragover) or away from it (dragleave), as the OS does. */
  async function dragFile(phase: 'over' | 'leave'): Promise<void> {
    const types = phase === 'over' ? ['dragenter', 'dragover'] : ['dragleave'];
    // Page code as a string: this file has no DOM types for DataTransfer and DragEvent.
    await page.evaluate(`(() => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array([137, 80, 78, 71])], 'kite.png', { type: 'image/png' }));
      const target = document.querySelector('.view') ?? document.body;
      for (const type of ${JSON.stringify(types)}) target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }));
    })()`);
  }

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
    await go('Responses');
    await page.locator('#responses-input').fill('Why do estuaries have two tides a day?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => page.getByRole('treeitem').count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => status().innerText(), { timeout: 30_000 }).toBe('completed');

    await go('Messages');
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

    await go('Compare');
    await page.getByRole('textbox', { name: 'User' }).fill('Explain how tides work near river estuaries');
    await expect.poll(() => page.getByRole('button', { name: 'Run all' }).isEnabled(), { timeout: 10_000 }).toBe(true);
    await page.getByRole('button', { name: 'Run all' }).click();
    for (const n of [1, 2]) await expect.poll(() => page.locator(`[data-column="${n}"] .run-status`).innerText(), { timeout: 60_000 }).toBe('completed');

    await go('Files');
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

    // An image run, so History lists one of each kind; media rows say what they made.
    await go('Images');
    await page.locator('#images-prompt').fill('A tide table drawn as a lighthouse keeper would');
    await expect.poll(() => page.getByRole('button', { name: 'Generate', exact: true }).isEnabled(), { timeout: 10_000 }).toBe(true);
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await expect.poll(() => page.locator('.image-result').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    await go('History');
    const rowOf = (text: string) => page.locator('.history-table tbody tr').filter({ hasText: text }).first();
    await expect.poll(() => rowOf('tide-tables-for-the-severn').innerText(), { timeout: 10_000 }).toMatch(/\d+ bytes|KiB|MiB/);
    await expect.poll(() => rowOf('A tide table drawn').innerText(), { timeout: 10_000 }).toMatch(/1 image[\s\S]*\d+×\d+/);
    for (const text of ['tide-tables-for-the-severn', 'A tide table drawn']) {
      const shown = await rowOf(text).innerText();
      expect(shown).not.toMatch(/byte \d|— → —|tok\/s/);
    }
    await page.screenshot({ path: join(SHOTS, 'history-media-rows.png') });
  });

  it('shows a drop overlay only while a file is dragged over the views that take drops', async () => {
    await page.setViewportSize(SIZES[1]);
    for (const view of ['Images', 'Videos', 'Gallery']) {
      await go(view);
      expect(await coveringLayers(), `${view} with nothing dragged`).toEqual([]);
      await dragFile('over');
      await expect.poll(() => page.locator('.view-drop-overlay').isVisible(), { message: `${view} while a file is dragged` }).toBe(true);
      expect((await coveringLayers()).length, view).toBe(1);
      await page.screenshot({ path: join(SHOTS, `drag-${view.toLowerCase()}.png`) });
      await dragFile('leave');
      await expect.poll(() => page.locator('.view-drop-overlay').count(), { message: `${view} after the drag left` }).toBe(0);
    }
  });

  it("gives the header's notice a row of its own, read whole and clear of the connection picker, at 900 and 1280 px", async () => {
    for (const size of SIZES) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const context = await opened!.browser.newContext({ viewport: size, bypassCSP: true, colorScheme });
        const other = await context.newPage();
        try {
          // A token from an earlier start: main refuses it and the header says what to do.
          await other.goto(app.url.replace(/#token=.*$/, '#token=from-an-earlier-start-0000000000'));
          const notice = other.locator('header .bridge-status .p-message');
          await notice.waitFor({ timeout: 30_000 });
          await expect.poll(() => notice.innerText()).toContain('pasting it into this tab is enough.');
          const boxes = await other.evaluate(() => {
            const box = (sel: string) => {
              const el = document.querySelector(sel);
              if (!el) return null;
              const r = el.getBoundingClientRect();
              return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, scroll: el.scrollWidth, client: el.clientWidth };
            };
            return { notice: box('header .bridge-status .p-message')!, text: box('header .bridge-status .p-message-text'), picker: box('.connection-switcher')!, actions: box('.header-actions')!, width: innerWidth };
          });
          const overlaps = (a: { left: number; right: number; top: number; bottom: number }, b: typeof a) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
          const where = `${size.width} ${colorScheme}`;
          expect(overlaps(boxes.notice, boxes.picker), where).toBe(false);
          expect(overlaps(boxes.notice, boxes.actions), where).toBe(false);
          expect(boxes.notice.left, where).toBeGreaterThanOrEqual(0);
          expect(boxes.notice.right, where).toBeLessThanOrEqual(boxes.width);
          // Wrapped, not cut: nothing of it scrolls out of its box.
          if (boxes.text) expect(boxes.text.scroll, where).toBeLessThanOrEqual(boxes.text.client + 1);
          if (!(await other.evaluate(() => 'axe' in window))) await other.addScriptTag({ content: AXE });
          const serious = await other.evaluate(async () => {
            const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
            return result.violations
              .filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
              .flatMap((v: { id: string; nodes: Array<{ target: string[]; failureSummary?: string }> }) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 200)}`));
          });
          expect(serious, where).toEqual([]);
          await other.screenshot({ path: join(SHOTS, `${size.width}-${colorScheme}-header-notice.png`) });
        } finally {
          await context.close();
        }
      }
    }
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
          // Nothing is dragged: no view may sit under a drop hint or any other see-through layer.
          if (view !== 'Connections' && view !== 'Keyboard shortcuts') for (const layer of await coveringLayers()) problems.push(`${view}: covered by ${layer}`);
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
