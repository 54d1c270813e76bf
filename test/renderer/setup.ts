// Renderer tests see answers rendered as markdown at once, as the app does once its idle-time
// preload has finished (see async-markdown.ts); the plain-text stand-in has its own test. The
// window is a desktop one (1440×900, not happy-dom's 1024 wide, which is the compact layout);
// the compact layout's tests stub matchMedia themselves.
//
// This file runs before every test file. The `renderer` project shares one happy-dom window
// among the files a worker runs (vitest.config.ts: isolate false), so each file starts here with
// the window as a fresh one has it: nothing left in the body or the storages, no class on <html>
// (the dark theme's), real timers, no globals still stubbed.
import { beforeAll, vi } from 'vitest';
import { preloadMarkdown } from '@/components/markdown/async-markdown';

(globalThis as { happyDOM?: { setViewport(size: { width: number; height: number }): void } }).happyDOM?.setViewport({ width: 1440, height: 900 });

vi.useRealTimers();
vi.unstubAllGlobals();
vi.unstubAllEnvs();
// (A file that asks for the node environment, the Chromium one, has no window.)
if (typeof document !== 'undefined') {
  document.body.replaceChildren();
  for (const name of document.body.getAttributeNames()) document.body.removeAttribute(name);
  document.documentElement.removeAttribute('class');
  localStorage.clear();
  sessionStorage.clear();
}

beforeAll(async () => {
  await preloadMarkdown();
});
