/**
 * Starts the app the way a user does — `npm start -- --browser` — in a temporary data folder, and
 * drives Debian's Chromium with playwright-core. Screenshots go to test-results/e2e/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SHOTS = join(ROOT, 'test-results', 'e2e');

export interface RunningApp {
  url: string;
  dataDir: string;
  output: () => string;
  stop(): Promise<number | null>;
  /** Kills the app at once (SIGKILL to its process group), as a crash would; resolves once it is gone. */
  crash(): Promise<void>;
}

/**
 * Starts the app as `npm start -- --browser` does and waits for its one `Workbench: <url>` line.
 * `port` pins the port (a restart on the same port and data folder, as a user does); default: any free one.
 * `env` adds environment variables (e.g. a test-only backoff scale).
 */
export async function startApp(options: { dataDir?: string; tokenDelayMs?: number; port?: number; env?: Record<string, string> } = {}): Promise<RunningApp> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'wb-e2e-'));
  let output = '';
  // `npm start` is `node scripts/start.mjs`; spawning that directly lets the test read its exit code
  // (npm itself dies of the SIGINT that Ctrl+C sends to the whole group).
  const portArgs = options.port === undefined ? [] : ['--port', String(options.port)];
  const child: ChildProcess = spawn(process.execPath, ['scripts/start.mjs', '--browser', '--data-dir', dataDir, ...portArgs], {
    cwd: ROOT,
    env: { ...process.env, WORKBENCH_SANDBOX_TOKEN_DELAY_MS: String(options.tokenDelayMs ?? 15), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`app did not print its URL within 120 s:\n${output}`)), 120_000);
    child.stdout!.on('data', (data: Buffer) => {
      output += data.toString();
      const match = /^Workbench: (http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+)$/m.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
    child.stderr!.on('data', (data: Buffer) => {
      output += data.toString();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`app exited with ${code} before printing its URL:\n${output}`));
    });
  });
  return {
    url,
    dataDir,
    output: () => output,
    stop: () =>
      new Promise((resolveStop) => {
        if (child.exitCode !== null) return resolveStop(child.exitCode);
        child.once('exit', (code) => resolveStop(code));
        // Ctrl+C in a terminal signals the whole process group, and start.mjs forwards it as well,
        // so the server sees it more than once; a quick second press must still shut down cleanly.
        process.kill(-child.pid!, 'SIGINT');
        setTimeout(() => {
          if (child.exitCode === null) process.kill(-child.pid!, 'SIGINT');
        }, 20);
      }),
    crash: () =>
      new Promise((resolveCrash) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolveCrash();
        child.once('exit', () => resolveCrash());
        process.kill(-child.pid!, 'SIGKILL');
      }),
  };
}

/**
 * Debian's Chromium, headless. `extraArgs` adds switches, e.g. Chromium's fake microphone:
 * `--use-fake-ui-for-media-stream --use-fake-device-for-media-stream --use-file-for-fake-audio-capture=FILE.wav`.
 */
export async function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', ...extraArgs],
  });
}

/** Chromium's switches that feed the page's microphone from `wav` (looped) and grant it without asking. */
export function fakeMicrophoneArgs(wav: string): string[] {
  return ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${wav}`];
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** The app and one browser page of a test file. */
export interface AppPage {
  app: RunningApp;
  browser: Browser;
  page: Page;
}

/**
 * Starts the app (in `dataDir` to reopen an earlier session's data) and opens a browser page of the
 * given size (not yet on the app's URL). When the browser cannot start, the app is stopped again
 * rather than left running.
 */
export async function openAppPage(options: {
  tokenDelayMs?: number;
  dataDir?: string;
  env?: Record<string, string>;
  viewport: { width: number; height: number };
  /** More Chromium switches (see launchBrowser). */
  browserArgs?: readonly string[];
}): Promise<AppPage> {
  const app = await startApp({ tokenDelayMs: options.tokenDelayMs, dataDir: options.dataDir, env: options.env });
  try {
    const browser = await launchBrowser(options.browserArgs);
    return { app, browser, page: await browser.newPage({ viewport: options.viewport }) };
  } catch (error) {
    await app.stop();
    removeDir(app.dataDir);
    throw error;
  }
}

/**
 * Closes the browser and stops the app; returns the app's exit code (undefined when it never
 * started). Its data folder is removed unless `keepData` (for a test that inspects it first).
 */
export async function closeAppPage(opened: AppPage | undefined, options: { keepData?: boolean } = {}): Promise<number | null | undefined> {
  if (!opened) return undefined;
  await opened.browser.close();
  const code = await opened.app.stop();
  if (!options.keepData) removeDir(opened.app.dataDir);
  return code;
}

/** The playground's Output region, its text (trimmed) and its run status, on the page `page()` gives. */
export function outputOf(page: () => Page) {
  const output = () => page().getByRole('region', { name: 'Output' });
  return { output, outputText: async () => (await output().innerText()).trim(), status: () => output().locator('.run-status') };
}

/**
 * Adds a service (a standalone sandbox, a proxy in front of one) as a connection named `name` in
 * the Connections dialog and makes it the active one, as a user does.
 */
export async function useServiceConnection(page: Page, service: { name: string; url: string; key: string }): Promise<void> {
  await page.getByRole('button', { name: 'Connections' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connections' });
  await dialog.getByRole('button', { name: 'Add connection' }).click();
  await dialog.getByLabel('Name').fill(service.name);
  await dialog.getByLabel('Base URL').fill(service.url);
  await dialog.getByLabel('API key').fill(service.key);
  await dialog.getByRole('button', { name: 'Add connection' }).click();
  await dialog.getByText(service.name).first().waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('combobox', { name: 'Connection' }).click();
  await page.getByRole('option', { name: service.name }).click();
  await page.locator('.p-select-overlay').waitFor({ state: 'detached' });
}
