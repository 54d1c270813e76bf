// @vitest-environment node
// DOMPurify does not work on happy-dom (its maintainers do not support it), so sanitisation is
// checked in real Chromium, on the renderer's own bundle (the benchmark harness page).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface BrowserPage {
  evaluate<R, A>(fn: (arg: A) => R, arg: A): Promise<R>;
}
interface Harness {
  page: BrowserPage;
  close(): Promise<void>;
}

// Loaded by a computed path so this renderer-side file does not pull Node's types into the renderer's type-check.
const HARNESS = new URL('../../bench/stream-render/harness.ts', import.meta.url).href;
let harness: Harness;

beforeAll(async () => {
  const { startHarness } = (await import(/* @vite-ignore */ HARNESS)) as { startHarness(): Promise<Harness> };
  harness = await startHarness();
}, 120_000);
afterAll(() => harness?.close());

type Api = { renderBlock(s: string): string; sanitizeHtml(s: string): string };
const renderBlock = (source: string) =>
  harness.page.evaluate((s) => (globalThis as unknown as { __markdown: Api }).__markdown.renderBlock(s), source);
const sanitizeHtml = (html: string) =>
  harness.page.evaluate((h) => (globalThis as unknown as { __markdown: Api }).__markdown.sanitizeHtml(h), html);

describe('render-block (in Chromium)', () => {
  describe('renderBlock()', () => {
    it('shows raw HTML in markdown as text, never as elements', async () => {
      expect(await renderBlock('hi <script>alert(1)</script> <img src=x onerror="alert(2)">')).toBe(
        '<p>hi &lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror="alert(2)"&gt;</p>\n',
      );
    });

    it('does not turn javascript: URLs into links', async () => {
      expect(await renderBlock('[click](javascript:alert(1)) ![img](javascript:alert(2))')).not.toMatch(/href="javascript|src="javascript/i);
    });

    it('opens links outside the app without access to the opener', async () => {
      expect(await renderBlock('see https://example.com and [docs](https://example.org/d)')).toBe(
        '<p>see <a href="https://example.com" target="_blank" rel="noopener noreferrer">https://example.com</a> and ' +
          '<a href="https://example.org/d" target="_blank" rel="noopener noreferrer">docs</a></p>\n',
      );
    });

    it('keeps highlighted code and its Copy button through sanitisation', async () => {
      const html = await renderBlock('```python\ndef f():\n    return 1\n```');
      expect(html).toContain('<span class="hljs-keyword">def</span>');
      expect(html).toContain('<button type="button" class="md-copy" data-md-copy="" aria-label="Copy code">Copy</button>');
    });
  });

  describe('sanitizeHtml()', () => {
    it('removes scripts, event handlers and javascript: URLs', async () => {
      expect(
        await sanitizeHtml(
          '<p onclick="x()">a<img src="x.png" onerror="alert(1)"><a href="javascript:alert(1)">j</a>' +
            '<a href=" JaVaScRiPt:alert(1)">k</a></p><script>alert(2)</script><iframe src="https://evil"></iframe>',
        ),
      ).toBe('<p>a<img src="x.png"><a>j</a><a>k</a></p>');
    });
  });
});
