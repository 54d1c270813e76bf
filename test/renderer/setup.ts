// Renderer tests see answers rendered as markdown at once, as the app does once its idle-time
// preload has finished (see async-markdown.ts); the plain-text stand-in has its own test.
import { beforeAll } from 'vitest';
import { preloadMarkdown } from '@/components/markdown/async-markdown';

beforeAll(async () => {
  await preloadMarkdown();
});
