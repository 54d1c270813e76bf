import { describe, expect, it } from 'vitest';
import { findPrompt, focusPrompt } from '@/lib/prompt-focus';

describe('prompt focus', () => {
  it('takes the last shown prompt, passing over one in a hidden tab panel (Legacy keeps both tabs mounted)', () => {
    const root = document.createElement('div');
    root.innerHTML = `
      <div><textarea id="completions-prompt-1" data-prompt></textarea></div>
      <div style="display: none;"><textarea id="complete-prompt" data-prompt></textarea></div>`;
    document.body.append(root);
    expect(findPrompt(root)?.id).toBe('completions-prompt-1');
    expect(focusPrompt(root)).toBe(true);
    expect(document.activeElement?.id).toBe('completions-prompt-1');
    root.remove();
  });

  it('has no prompt when every marked field is disabled or hidden', () => {
    const root = document.createElement('div');
    root.innerHTML = `<textarea data-prompt disabled></textarea><section hidden><textarea data-prompt></textarea></section>`;
    expect(findPrompt(root)).toBeNull();
    expect(focusPrompt(root)).toBe(false);
  });
});
