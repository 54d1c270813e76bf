import { describe, expect, it } from 'vitest';
import { markdownPreviewText } from '@/lib/markdown/preview-text';

describe('preview-text', () => {
  describe('markdownPreviewText()', () => {
    it('drops emphasis, headings, bullets and link targets, keeping the words', () => {
      const source = '# Title\n\nSome **bold** and _italic_ text with `code` and a [link](https://example.com).\n\n- one\n- two\n\n> quoted';
      expect(markdownPreviewText(source)).toBe('Title Some bold and italic text with code and a link. one two quoted');
    });

    it('keeps the code of a fenced block and the alt text of an image', () => {
      expect(markdownPreviewText('Run:\n\n```sh\nls -la\n```\n\n![a chart](c.png)')).toBe('Run: ls -la a chart');
    });

    it('leaves plain text and text that only looks like markup as it is', () => {
      expect(markdownPreviewText('2 * 3 * 4 = 24, snake_case_name <b>')).toBe('2 * 3 * 4 = 24, snake_case_name <b>');
      expect(markdownPreviewText('')).toBe('');
    });

    it('keeps what a preview cut in the middle of markup still says', () => {
      expect(markdownPreviewText('The answer is **forty')).toBe('The answer is **forty');
    });
  });
});
