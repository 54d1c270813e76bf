import { describe, expect, it } from 'vitest';
import { outputPreviewOf, PREVIEW_CHARS, previewOf, promptPreviewOf } from '../../../../main/store/run-previews';
import { completion } from './run-fixtures';

describe('run-previews', () => {
  describe('previewOf()', () => {
    it('collapses whitespace onto one line', () => {
      expect(previewOf('  a\n\n b\t c ')).toBe('a b c');
    });

    it('cuts long text with an ellipsis within the limit', () => {
      const preview = previewOf('word '.repeat(100));
      expect(preview.length).toBeLessThanOrEqual(PREVIEW_CHARS);
      expect(preview.endsWith('…')).toBe(true);
    });
  });

  describe('promptPreviewOf()', () => {
    it('shows the last user message, skipping assistant and system turns', () => {
      const body = {
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'first' },
          { role: 'assistant', content: 'reply' },
          { role: 'user', content: 'second' },
          { role: 'assistant', content: 'prefill' },
        ],
      };
      expect(promptPreviewOf(body, 'fallback')).toBe('second');
    });

    it('falls back to the prompt text when the body has no user text', () => {
      expect(promptPreviewOf({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }] }, 'indexed  text')).toBe('indexed text');
      expect(promptPreviewOf(null, 'plain')).toBe('plain');
    });
  });

  describe('outputPreviewOf()', () => {
    it('prefers the answer over reasoning in the indexed text', () => {
      expect(outputPreviewOf(completion('The answer.', 'long thinking'), 'long thinking\nThe answer.')).toBe('The answer.');
    });

    it('uses the indexed text when there is no completion content', () => {
      expect(outputPreviewOf(null, 'partial stream')).toBe('partial stream');
      expect(outputPreviewOf(undefined, undefined)).toBe('');
    });
  });
});
