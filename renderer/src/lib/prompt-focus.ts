/**
 * Where "the prompt" is on the current view: the last field marked `data-prompt` (the last
 * message of a conversation, Responses' input, Legacy's prompt, Compare's user message), so
 * focus can go back to it after a send, after a dialog closes, and on the focus-prompt shortcut.
 */

/** Hidden by v-show (an inactive tab keeps its panel mounted), `hidden` or `inert`, itself or above. */
const HIDDEN = '[style*="display: none"], [hidden], [inert]';

/** The prompt field of what is on screen, or null on views without one (Models, Files, ...). */
export function findPrompt(root: ParentNode = document): HTMLElement | null {
  const marked = [...root.querySelectorAll<HTMLElement>('[data-prompt]')].filter((el) => !(el as HTMLTextAreaElement).disabled && !el.closest(HIDDEN));
  return marked.at(-1) ?? null;
}

/** Focuses the prompt (caret at the end, scrolled into view); false when the view has none. */
export function focusPrompt(root: ParentNode = document): boolean {
  const el = findPrompt(root);
  if (!el) return false;
  el.focus();
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement) {
    const end = el.value.length;
    el.setSelectionRange?.(end, end);
  }
  el.scrollIntoView?.({ block: 'nearest' });
  return true;
}
