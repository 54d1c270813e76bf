/**
 * Screenshot harness (not a test): serves the built renderer (out/renderer) on loopback, injects
 * the fake workbench, and saves PNGs of each screen in light and dark themes.
 * Run: npx vite build && npx tsx test/renderer/screenshots/shoot.ts [outDir]
 */
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Page } from 'playwright-core';

const root = resolve('out/renderer');
const outDir = resolve(process.argv[2] ?? '/tmp/workbench-shots');
const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

const bundled = await build({ entryPoints: [resolve('test/renderer/screenshots/fake-entry.ts')], bundle: true, format: 'iife', write: false, platform: 'browser' });
const fakeScript = bundled.outputFiles[0]!.text;

const server = createServer(async (req, res) => {
  const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
  try {
    const body = await readFile(join(root, path === '/' ? 'index.html' : path));
    res.writeHead(200, { 'content-type': types[extname(path)] ?? (path === '/' ? 'text/html' : 'application/octet-stream') });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as { port: number }).port;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
});

async function shoot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(outDir, `${name}.png`) });
}

try {
  for (const theme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: theme });
    await context.addInitScript(fakeScript);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`http://127.0.0.1:${port}/#/chat`);
    await page.getByRole('navigation').getByRole('link', { name: 'Chat' }).waitFor();
    await page.getByRole('textbox', { name: 'Message 1', exact: true }).fill('Give me a short demo answer with a list and some code.');
    await page.getByLabel('System prompt', { exact: true }).fill('You are concise.');
    await shoot(page, `${theme}-chat-empty`);
    await page.keyboard.press('Control+Enter');
    await page.getByText('Done.').waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: /Reasoning/ }).click();
    await shoot(page, `${theme}-chat-run`);
    await page.getByRole('button', { name: 'Inspector' }).click();
    await shoot(page, `${theme}-chat-inspector`);
    await page.keyboard.press('Escape');
    const temperature = page.getByLabel('temperature', { exact: true });
    await temperature.fill('3');
    await temperature.blur();
    await page.getByText('temperature must be between 0 and 2').first().waitFor();
    await shoot(page, `${theme}-chat-invalid`);
    await page.getByRole('link', { name: 'Models' }).click();
    await page.getByRole('table').waitFor();
    await shoot(page, `${theme}-models`);
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByText('Write a haiku about latency').waitFor();
    await shoot(page, `${theme}-history`);
    await page.getByText('Translate this contract clause to French').click();
    await page.getByRole('button', { name: 'Open in playground' }).waitFor();
    await shoot(page, `${theme}-history-entry`);
    await page.getByRole('button', { name: 'Connections' }).click();
    await page.getByRole('dialog').waitFor();
    await shoot(page, `${theme}-connections`);
    if (errors.length) process.stderr.write(`${theme} page errors:\n${errors.join('\n')}\n`);
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}
process.stdout.write(`screenshots in ${outDir}\n`);
