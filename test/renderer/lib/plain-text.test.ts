import { describe, expect, it } from 'vitest';
import { markdownToPlainText } from '@/lib/markdown/plain-text';

describe('markdownToPlainText()', () => {
  it('drops the markup and keeps one blank line between blocks, lists as dashes and numbers', () => {
    const md = '# Tides\n\nThe **moon** pulls the [sea](https://example.com).\n\n- one\n- *two*\n\n1. first\n2. second\n\n```js\nconst a = 1 < 2;\n```';
    expect(markdownToPlainText(md)).toBe('Tides\n\nThe moon pulls the sea.\n\n- one\n- two\n\n1. first\n2. second\n\nconst a = 1 < 2;');
  });

  it('leaves no code-block chrome (language label, Copy button) in the text', () => {
    expect(markdownToPlainText('```bash\nls\n```')).toBe('ls');
  });

  it('keeps HTML-looking text as text', () => {
    expect(markdownToPlainText('Use <b>bold</b> & <script>x</script>')).toBe('Use <b>bold</b> & <script>x</script>');
  });
});
