// Builds the benchmark page with Vite into a temp folder, serves it on 127.0.0.1 and opens it in
// Debian's Chromium. Shared by the benchmark and the browser-only sanitisation tests.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json' };

/** A running harness: the page, and close() to stop the browser, the server and remove the build. */
export interface Harness {
  page: Page;
  browser: Browser;
  url: string;
  close(): Promise<void>;
}

async function buildPage(): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'stream-render-'));
  await build({
    root: HERE,
    configFile: false,
    logLevel: 'error',
    base: './',
    plugins: [vue()],
    build: { outDir, emptyOutDir: true, minify: true, sourcemap: false, reportCompressedSize: false },
  });
  return outDir;
}

function serve(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer(async (req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = join(dir, normalize(pathname.endsWith('/') ? `${pathname}index.html` : pathname));
    try {
      if (!file.startsWith(dir)) throw new Error('outside the build');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ server, url: `http://127.0.0.1:${port}/` });
    });
  });
}

/** Builds, serves and opens the harness page. `extraArgs` are added to Chromium's command line. */
export async function startHarness(extraArgs: string[] = []): Promise<Harness> {
  const dir = await buildPage();
  const { server, url } = await serve(dir);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', ...extraArgs],
  });
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForFunction(() => '__bench' in globalThis);
  return {
    page,
    browser,
    url,
    async close() {
      await browser.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
