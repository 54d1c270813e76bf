/**
 * The keyboard shortcuts, listed once: the help sheet shows this table and the app's one key
 * listener (composables/use-app-shortcuts.ts) matches key presses against it, so a shortcut that
 * works is always listed and a listed one always works.
 *
 * Browser-reserved keys are avoided: Ctrl/Cmd+1..8, Ctrl+L, Ctrl+Shift+N belong to the browser in
 * browser mode, so the app's own use Alt (Option on macOS, matched by physical key so the
 * characters Option types there do not matter).
 */
import { NAV_ENTRIES, type NavRoute } from '@shared/families';

/** What a shortcut does; `go:<route>` opens a view. Views add handlers with useCommand(). */
export type CommandId = 'prompt.focus' | 'playground.new' | 'shortcuts.show' | 'theme.toggle' | `go:${NavRoute}`;

export interface Shortcut {
  /** As the sheet shows it ("Alt+1", "⌘+Enter"). */
  keys: string;
  action: string;
  /** Run by the app's key listener; none for keys a view handles itself (send, stop). */
  command?: CommandId;
  /** Whether the key press is this shortcut. */
  matches?: (e: KeyboardEvent) => boolean;
}

/** True on macOS, where the primary modifier is Cmd. */
export function isMac(): boolean {
  return /Mac|iPhone|iPad/.test(globalThis.navigator?.platform ?? '');
}

/** "Ctrl+Enter" ("⌘+Enter" on macOS): the send shortcut as the send buttons' hints show it. */
export function sendKeys(): string {
  return `${isMac() ? '⌘' : 'Ctrl'}+Enter`;
}

const altName = (): string => (isMac() ? '⌥' : 'Alt');

/** Alt (Option) with `code` and no other modifier. */
const alt = (code: string) => (e: KeyboardEvent): boolean => e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey && e.code === code;
const plain = (key: string) => (e: KeyboardEvent): boolean => e.key === key && !e.ctrlKey && !e.metaKey && !e.altKey && !isTyping(e);

/** Every shortcut, in the order the sheet lists them. */
export function shortcutList(): Shortcut[] {
  const mod = isMac() ? '⌘' : 'Ctrl';
  const a = altName();
  return [
    { keys: sendKeys(), action: 'Send the request (every playground; Run all in Compare)' },
    { keys: 'Esc', action: 'Stop the running stream' },
    { keys: `${a}+P`, action: 'Focus the prompt', command: 'prompt.focus', matches: alt('KeyP') },
    { keys: '/', action: 'Focus the prompt (when not typing in a field)', command: 'prompt.focus', matches: plain('/') },
    { keys: `${a}+N`, action: 'Start a new draft in this playground', command: 'playground.new', matches: alt('KeyN') },
    // Alt+1..9 only: a tenth entry would need Alt+0 or two keys, and a listed shortcut must work.
    ...NAV_ENTRIES.slice(0, 9).map((entry, i): Shortcut => ({
      keys: `${a}+${i + 1}`,
      action: `Open ${entry.label}`,
      command: `go:${entry.route}`,
      matches: alt(`Digit${i + 1}`),
    })),
    { keys: '?', action: 'Show this list of shortcuts', command: 'shortcuts.show', matches: plain('?') },
    {
      keys: `${mod}+Shift+L`,
      action: 'Switch between light and dark theme',
      command: 'theme.toggle',
      matches: (e) => (e.ctrlKey || e.metaKey) && e.shiftKey && !e.altKey && e.key.toLowerCase() === 'l',
    },
  ];
}

/** The shortcut a key press is, if any (only those the app's listener runs). */
export function matchShortcut(e: KeyboardEvent, list: readonly Shortcut[] = shortcutList()): Shortcut | null {
  return list.find((s) => s.command && s.matches?.(e)) ?? null;
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
