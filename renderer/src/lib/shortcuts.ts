/** The keyboard shortcuts, listed once: the help dialog shows this table, handlers match it. */

export interface Shortcut {
  keys: string;
  action: string;
}

/** True on macOS, where the primary modifier is Cmd. */
export function isMac(): boolean {
  return /Mac|iPhone|iPad/.test(globalThis.navigator?.platform ?? '');
}

/** "Ctrl+Enter" ("⌘+Enter" on macOS): the send shortcut as the send buttons' hints show it. */
export function sendKeys(): string {
  return `${isMac() ? '⌘' : 'Ctrl'}+Enter`;
}

export function shortcutList(): Shortcut[] {
  const mod = isMac() ? '⌘' : 'Ctrl';
  return [
    { keys: sendKeys(), action: 'Send the request (every playground; Run all in Compare)' },
    { keys: 'Esc', action: 'Stop the running stream' },
    { keys: '?', action: 'Show this list of shortcuts' },
    { keys: `${mod}+Shift+L`, action: 'Switch between light and dark theme' },
  ];
}

/** Ctrl+Enter (Cmd+Enter on macOS, either accepted). */
export function isSendShortcut(e: KeyboardEvent): boolean {
  return e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.altKey;
}

/** Whether a key press is being typed into a field (single-key shortcuts must not fire then). */
export function isTyping(e: KeyboardEvent): boolean {
  const el = e.target as HTMLElement | null;
  if (!el || typeof el.closest !== 'function') return false;
  return Boolean(el.closest('input, textarea, select, [contenteditable="true"], [role="combobox"]'));
}
