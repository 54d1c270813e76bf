// Renderer tests see answers rendered as markdown at once, as the app does once its idle-time
// preload has finished (see async-markdown.ts); the plain-text stand-in has its own test. The
// window is a desktop one (1440×900, not happy-dom's 1024 wide, which is the compact layout);
// the compact layout's tests stub matchMedia themselves.
import { beforeAll } from 'vitest';
import { preloadMarkdown } from '@/components/markdown/async-markdown';

(globalThis as { happyDOM?: { setViewport(size: { width: number; height: number }): void } }).happyDOM?.setViewport({ width: 1440, height: 900 });

beforeAll(async () => {
  await preloadMarkdown();
});
