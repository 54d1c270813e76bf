/**
 * Exported code runs against the built-in sandbox as shown: a chat run in the app, its curl and
 * Python exports taken from the inspector, run with bash / python3 with only the variables their
 * first lines say to set (the sandbox's key is written there: it is no secret), print the same
 * text the run got (the sandbox is deterministic: the same request gives the same text). After a
 * restart on the same data the sandbox is at the same address, so the same export still works.
 * The run carries a custom secret-looking header: masked in the inspector and absent from the
 * database, and the export reads its value from the variable it names.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAppPage, launchBrowser, openAppPage, outputOf, removeDir, screenshot, startApp, type AppPage } from './harness';

const PROMPT = 'Explain how tides work, briefly';
const TOKEN = 'tok-e2e-upstream-5150';
/** What the user fills in for the placeholders the header names (<the value of x-upstream-token>). */
const FILLED: Record<string, string> = { WORKBENCH_HEADER_X_UPSTREAM_TOKEN: TOKEN };

/** The `export NAME=value` lines the snippet's header says to run first, placeholders filled in as a user would. */
function exportsOf(code: string): string[] {
  return [...code.matchAll(/^(?:#|\/\/)\s+export ([A-Z_][A-Z0-9_]*)=(.*)$/gm)].map(([, name, value]) => {
    if (!value!.startsWith('<')) return `export ${name}=${value}`;
    if (!(name! in FILLED)) throw new Error(`the export asks for ${name} (${value}), which this test does not know`);
    return `export ${name}=${FILLED[name!]}`;
  });
}

/** Runs `program` with only PATH and HOME in the environment: nothing but what the snippet said to set. */
function run(cmd: string, args: string[]): Promise<string> {
  return new Promise((done, fail) => {
    execFile(cmd, args, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir() }, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) fail(new Error(`${cmd} failed: ${error.message}\n${stderr}\n${stdout}`));
      else done(stdout);
    });
  });
}

/** A user pasting the snippet into bash after the export lines it names. */
function runCurlAsShown(code: string, dir: string): Promise<string> {
  const file = join(dir, 'export.sh');
  writeFileSync(file, `${exportsOf(code).join('\n')}\n${code}\n`);
  return run('bash', [file]);
}

/** A user exporting what the script's header says, then `python3 snippet.py`. */
function runPythonAsShown(code: string, dir: string): Promise<string> {
  const file = join(dir, 'snippet.py');
  writeFileSync(file, code);
  const script = join(dir, 'python.sh');
  writeFileSync(script, `${exportsOf(code).join('\n')}\npython3 ${JSON.stringify(file)}\n`);
  return run('bash', [script]);
}

describe('code export against the built-in sandbox', () => {
  let opened: AppPage | undefined;
  let page: Page;
  let dir: string;
  let runText = '';
  let curl = '';
  let sandboxUrl = '';
  const { status } = outputOf(() => page);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wb-export-'));
    opened = await openAppPage({ tokenDelayMs: 2, viewport: { width: 1400, height: 1000 } });
    page = opened.page;
  });

  afterAll(async () => {
    await closeAppPage(opened);
    removeDir(dir);
  });

  async function openCode(tab: 'curl' | 'Python'): Promise<string> {
    await page.getByRole('button', { name: 'Inspector' }).click();
    await page.getByRole('tab', { name: 'Code' }).click();
    await page.getByRole('tab', { name: tab, exact: true }).click();
    return page.locator(`pre[aria-label="${tab} code"]`).innerText();
  }

  it('shows the sandbox key in Connections, the same as in its key file', async () => {
    await page.goto(opened!.app.url);
    await page.getByRole('button', { name: 'Connections' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connections' });
    const key = dialog.getByLabel('Sandbox key');
    await expect.poll(() => key.innerText(), { timeout: 10_000 }).toMatch(/^sk-sandbox-/);
    expect(await key.innerText()).toBe(readFileSync(join(opened!.app.dataDir, 'sandbox', 'key'), 'utf8').trim());
    sandboxUrl = (await dialog.locator('.profile').filter({ hasText: 'Sandbox' }).locator('.profile-url').innerText()).trim();
    expect(sandboxUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await screenshot(page, 'export-01-connections');
    await page.keyboard.press('Escape');
  });

  it('runs the exported curl as shown and gets the text of the run', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Chat' }).click();
    await page.getByRole('textbox', { name: 'Message 1' }).fill(PROMPT);
    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByRole('textbox', { name: 'Header 1 name' }).fill('x-upstream-token');
    await page.getByLabel('Header 1 value').fill(TOKEN);
    // Not streamed: the recorded response body then holds the run's text exactly, markdown and all.
    await page.locator('label[for="param-stream"]').click();
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => status().innerText(), { timeout: 30_000 }).toBe('completed');
    await page.getByRole('button', { name: 'Inspector' }).click();
    await page.getByRole('tab', { name: 'Response', exact: true }).click();
    runText = JSON.parse(await page.getByLabel('Response body').innerText()).choices[0].message.content;
    expect(runText.length).toBeGreaterThan(40);
    await page.getByRole('tab', { name: 'Headers', exact: true }).click();
    expect(await page.getByRole('table', { name: 'Request headers' }).innerText()).toMatch(/x-upstream-token\s+\*\*\*/);
    const dataDir = opened!.app.dataDir;
    const files = readdirSync(dataDir).filter((f) => f.startsWith('workbench.db'));
    expect(files.filter((f) => readFileSync(join(dataDir, f)).includes(TOKEN))).toEqual([]);
    await page.keyboard.press('Escape');

    curl = await openCode('curl');
    const key = readFileSync(join(opened!.app.dataDir, 'sandbox', 'key'), 'utf8').trim();
    expect(exportsOf(curl)).toEqual([`export WORKBENCH_API_KEY='${key}'`, `export WORKBENCH_HEADER_X_UPSTREAM_TOKEN=${TOKEN}`]);
    expect(curl).toContain('-H "x-upstream-token: $WORKBENCH_HEADER_X_UPSTREAM_TOKEN"');
    expect(curl).not.toContain(TOKEN);
    expect(curl).toContain(`curl -X POST "\${WORKBENCH_BASE_URL:-${sandboxUrl}}/v1/chat/completions"`);
    await screenshot(page, 'export-02-curl');
    const out = JSON.parse(await runCurlAsShown(curl, dir));
    expect(out.choices[0].message.content).toBe(runText);
  });

  it('runs the exported Python (standard library) as shown and prints the same text', async () => {
    await page.getByRole('tab', { name: 'Python', exact: true }).click();
    const python = await page.locator('pre[aria-label="Python code"]').innerText();
    expect((await runPythonAsShown(python, dir)).trimEnd()).toBe(runText);
    await page.keyboard.press('Escape');
  });

  it('after a restart on the same data the sandbox is at the same address: the export still runs', async () => {
    const dataDir = opened!.app.dataDir;
    await opened!.browser.close();
    expect(await opened!.app.stop()).toBe(0);
    const app = await startApp({ dataDir, tokenDelayMs: 2 });
    const browser = await launchBrowser();
    opened = { app, browser, page: await browser.newPage({ viewport: { width: 1400, height: 1000 } }) };
    page = opened.page;
    const out = JSON.parse(await runCurlAsShown(curl, dir));
    expect(out.choices[0].message.content).toBe(runText);
  });
});
