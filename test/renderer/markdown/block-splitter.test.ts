import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BlockSplitter, splitBlocks } from '../../../renderer/src/lib/markdown/block-splitter';
import { chunk, markdownDocument, markdownNoise, streamedDocument } from './markdown-arbitraries';

function stream(chunks: string[]): { blocks: string[]; seenWhileStreaming: string[] } {
  const splitter = new BlockSplitter();
  const seenWhileStreaming: string[] = [];
  for (const c of chunks) seenWhileStreaming.push(...splitter.append(c));
  splitter.finish();
  return { blocks: [...splitter.blocks], seenWhileStreaming };
}

describe('block-splitter', () => {
  describe('splitBlocks()', () => {
    it('splits paragraphs, headings, rules and quotes at blank lines and keeps the last block as the tail', () => {
      expect(splitBlocks('# Title\n\nFirst para\nsame para\n\n> quote\n\n---\n\nlast\n')).toEqual({
        complete: ['# Title\n\n', 'First para\nsame para\n\n', '> quote\n\n', '---\n\n'],
        tail: 'last\n',
      });
    });

    it('keeps a fenced code block with blank lines inside as one block', () => {
      const fence = '```python\ndef f():\n\n\n    return 1\n```\n\n';
      expect(splitBlocks(`${fence}after\n`)).toEqual({ complete: [fence], tail: 'after\n' });
    });

    it('keeps an unterminated fence as the tail, however many blank lines it holds', () => {
      const text = 'intro\n\n```ts\nconst a = 1;\n\n\nconst b = 2;\n\nnot a paragraph\n';
      expect(splitBlocks(text)).toEqual({ complete: ['intro\n\n'], tail: text.slice('intro\n\n'.length) });
    });

    it('does not let a shorter or different marker close a fence', () => {
      const text = '````md\n```\n\n~~~\n\ninside\n';
      expect(splitBlocks(text)).toEqual({ complete: [], tail: text });
    });

    it('keeps a list whose items are separated by blank lines together, including continuation lines', () => {
      const list = '- one\n\n- two\n\n  continued paragraph\n\n- three\n\n';
      expect(splitBlocks(`${list}After the list.\n\nmore\n`)).toEqual({ complete: [list, 'After the list.\n\n'], tail: 'more\n' });
    });

    it('keeps a table together and splits it from the next paragraph', () => {
      const table = '| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\n';
      expect(splitBlocks(`${table}next\n\nend\n`)).toEqual({ complete: [table, 'next\n\n'], tail: 'end\n' });
    });

    it('treats a setext heading as one block with its underline', () => {
      expect(splitBlocks('Heading\n=======\n\nSub\n---\n\nend\n').complete).toEqual(['Heading\n=======\n\n', 'Sub\n---\n\n']);
    });

    it('keeps an indented code block with blank lines as one block', () => {
      expect(splitBlocks('    a\n\n    b\n\nend\n').complete).toEqual(['    a\n\n    b\n\n']);
    });
  });

  describe('BlockSplitter.append()', () => {
    it('completes a block only once the first line of the next block is complete', () => {
      const splitter = new BlockSplitter();
      expect(splitter.append('para one\n\n')).toEqual([]);
      expect(splitter.append('para')).toEqual([]);
      expect(splitter.append(' two\n')).toEqual(['para one\n\n']);
      expect(splitter.tail).toBe('para two\n');
    });

    it('does not end a streamed fence at a blank line and ends it at its closing marker', () => {
      const splitter = new BlockSplitter();
      const completed: string[] = [];
      for (const c of ['```js\n', 'a()\n', '\n', '\n', 'b()\n', '``', '`\n', '\nafter', '\n']) completed.push(...splitter.append(c));
      expect(completed).toEqual(['```js\na()\n\n\nb()\n```\n\n']);
      expect(splitter.tail).toBe('after\n');
    });

    it('turns a streamed paragraph into a heading when its setext underline arrives', () => {
      const splitter = new BlockSplitter();
      for (const c of ['Title\n', '=====\n', '\n', 'body\n']) splitter.append(c);
      expect(splitter.blocks).toEqual(['Title\n=====\n\n']);
    });

    it('does not end a list on a partial line that may turn out to be another item', () => {
      const splitter = new BlockSplitter();
      expect(splitter.append('1) one\n\n\n2')).toEqual([]);
      expect(splitter.append(') two\n\nafter\n')).toEqual(['1) one\n\n\n2) two\n\n']);
    });

    it('accepts CRLF line breaks', () => {
      expect(splitBlocks('a\r\n\r\n```\r\nx\r\n\r\ny\r\n```\r\n\r\nb\r\n').complete).toEqual(['a\r\n\r\n', '```\r\nx\r\n\r\ny\r\n```\r\n\r\n']);
    });
  });

  describe('BlockSplitter.finish()', () => {
    it('splits the tail into its final blocks', () => {
      const splitter = new BlockSplitter();
      splitter.append('a\n\n```\nopen fence');
      expect(splitter.finish()).toEqual(['```\nopen fence']);
      expect(splitter.blocks).toEqual(['a\n\n', '```\nopen fence']);
    });

    it('keeps a text of only reference definitions as a block', () => {
      const splitter = new BlockSplitter();
      splitter.append('[a]: https://example.com\n');
      expect(splitter.finish()).toEqual(['[a]: https://example.com\n']);
    });

    it('refuses appends after the text has ended', () => {
      const splitter = new BlockSplitter();
      splitter.finish();
      expect(() => splitter.append('x')).toThrow(/after finish/);
    });
  });

  describe('streaming property', () => {
    it('gives the same blocks, adding up to the text, wherever the stream is cut', () => {
      for (const arb of [markdownDocument, markdownNoise]) {
        fc.assert(
          fc.property(streamedDocument(arb), ([text, cuts]) => {
            const oneShot = stream([text]);
            const streamed = stream(chunk(text, cuts));
            expect(streamed.blocks).toEqual(oneShot.blocks);
            expect(streamed.blocks.join('')).toBe(text);
            // Blocks reported while streaming are final: they are a prefix of the final sequence.
            expect(oneShot.blocks.slice(0, streamed.seenWhileStreaming.length)).toEqual(streamed.seenWhileStreaming);
          }),
          { numRuns: 300 },
        );
      }
    });
  });
});
