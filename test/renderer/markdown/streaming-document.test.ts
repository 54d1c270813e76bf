import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { createMarkdown } from '../../../renderer/src/lib/markdown/create-markdown';
import type { RenderEnv } from '../../../renderer/src/lib/markdown/render-block';
import { StreamingDocument, type RenderedBlock } from '../../../renderer/src/lib/markdown/streaming-document';
import { chunk, markdownDocument, markdownNoise, streamedDocument } from './markdown-arbitraries';

/** Streams `chunks` through a document the way the component does, returning the final block HTML in order. */
function streamHtml(doc: StreamingDocument, chunks: string[]): string {
  const blocks: RenderedBlock[] = [];
  let text = '';
  for (const c of chunks) {
    text += c;
    blocks.push(...doc.update(text).added);
  }
  const last = doc.finish(text);
  blocks.push(...last.added);
  for (const r of last.replaced) blocks[r.index] = r;
  blocks.forEach((b, i) => expect(b.index).toBe(i));
  return blocks.map((b) => b.html).join('');
}

// DOMPurify does not run on happy-dom (see render-block.browser.test.ts for the sanitised path), so
// these tests render with the app's markdown-it configuration unsanitised.
const md: MarkdownIt = createMarkdown();
const render = (s: string, env: RenderEnv) => md.render(s, env);

describe('streaming-document', () => {
  describe('StreamingDocument', () => {
    it('ends with the HTML of a one-shot render wherever the stream is cut', () => {
      for (const arb of [markdownDocument, markdownNoise]) {
        fc.assert(
          fc.property(streamedDocument(arb), ([text, cuts]) => {
            expect(streamHtml(new StreamingDocument({ render }), chunk(text, cuts))).toBe(md.render(text));
          }),
          { numRuns: 200 },
        );
      }
    });

    it('reports each block once, in order, with distinct keys, when fed one character per frame', () => {
      const doc = new StreamingDocument({ render });
      const text = '# One\n\npara two\n\n```js\nx\n\ny\n```\n\n- a\n\n- b\n\nend\n';
      const added: RenderedBlock[] = [];
      for (let i = 1; i <= text.length; i++) {
        const change = doc.update(text.slice(0, i));
        added.push(...change.added);
      }
      added.push(...doc.finish(text).added);
      expect(added.map((b) => b.html).join('')).toBe(md.render(text));
      expect(added.map((b) => b.index)).toEqual([0, 1, 2, 3, 4]);
      expect(new Set(added.map((b) => b.key)).size).toBe(5);
    });

    it('does not render completed blocks again on later frames', () => {
      const calls: string[] = [];
      const doc = new StreamingDocument({ render: (s, env) => (calls.push(s), md.render(s, env)) });
      doc.update('first\n\nsecond\n');
      doc.update('first\n\nsecond\nstill second\n');
      doc.update('first\n\nsecond\nstill second\n\nthird\n');
      expect(calls.filter((c) => c === 'first\n\n')).toHaveLength(1);
      expect(calls.filter((c) => c === 'second\nstill second\n\n')).toHaveLength(1);
    });

    it('gives blocks stable keys and reports a reset when the text is replaced', () => {
      const doc = new StreamingDocument({ render });
      const first = doc.update('a\n\nb\n');
      expect(first).toMatchObject({ reset: false, added: [{ index: 0 }] });
      const replaced = doc.update('something else\n\nentirely\n');
      expect(replaced.reset).toBe(true);
      expect(replaced.added.map((b) => b.index)).toEqual([0]);
      expect(replaced.added[0].key).not.toBe(first.added[0].key);
    });

    it('shows the tail while streaming and clears it when finished', () => {
      const doc = new StreamingDocument({ render });
      expect(doc.update('**bold** start').tailHtml).toBe('<p><strong>bold</strong> start</p>\n');
      expect(doc.finish('**bold** start')).toMatchObject({ tailHtml: '', added: [{ html: '<p><strong>bold</strong> start</p>\n' }] });
    });

    it('resolves a link whose reference is defined after it once the message ends', () => {
      const doc = new StreamingDocument({ render });
      const text = 'see [docs]\n\nmore\n\n[docs]: https://example.com/docs\n';
      const early = doc.update(text);
      expect(early.added[0].html).toBe('<p>see [docs]</p>\n');
      const end = doc.finish(text);
      expect(end.replaced).toEqual([
        { key: early.added[0].key, index: 0, html: '<p>see <a href="https://example.com/docs">docs</a></p>\n' },
      ]);
    });
  });
});
