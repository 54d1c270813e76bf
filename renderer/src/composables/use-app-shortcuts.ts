/**
 * The app's keyboard layer, set up once by App.vue: one key listener that runs the shortcut table
 * (lib/shortcuts.ts) through the commands (use-command.ts), the app-wide commands themselves
 * (open a view, focus the prompt, the shortcuts sheet, the theme), and focus back to the prompt
 * when a dialog or drawer closes, so a keyboard user never lands on <body>.
 */
import { nextTick, onScopeDispose, type Ref } from 'vue';
import type { Router } from 'vue-router';
import { NAV_ENTRIES } from '@shared/families';
import { matchShortcut, shortcutList } from '../lib/shortcuts';
import { focusPrompt } from '../lib/prompt-focus';
import { runCommand, useCommand } from './use-command';
import { useKeyListener } from './use-key-listener';

export interface AppShortcutsOptions {
  router: Router;
  showShortcuts: Ref<boolean>;
  toggleTheme: () => void;
}

const DIALOG = '[role="dialog"], [role="alertdialog"]';
/** Where PrimeVue puts a dialog or drawer: a mask appended to <body>. */
const MASK = '.p-dialog-mask, .p-drawer-mask, .p-overlay-mask';

/** Whether a removed node was (or held) a dialog or drawer. */
function isDialog(node: Node): boolean {
  if (!(node instanceof Element)) return false;
  return node.matches(DIALOG) || node.querySelector(DIALOG) !== null;
}

export function useAppShortcuts({ router, showShortcuts, toggleTheme }: AppShortcutsOptions): void {
  const table = shortcutList();

  useCommand('shortcuts.show', () => (showShortcuts.value = true));
  useCommand('theme.toggle', toggleTheme);
  useCommand('prompt.focus', () => void focusPrompt());
  for (const entry of NAV_ENTRIES) {
    // After the view has rendered, its prompt takes the focus (a view without one keeps it where it was).
    useCommand(`go:${entry.route}`, () => void router.push(entry.route).then(() => nextTick(() => focusPrompt())));
  }

  useKeyListener((e) => {
    const shortcut = matchShortcut(e, table);
    if (!shortcut?.command || !runCommand(shortcut.command)) return;
    // The key is the app's now: a focused control (a Select opens and searches on a printable
    // key, Alt held or not) must not act on it too.
    e.preventDefault();
    e.stopPropagation();
  });

  // PrimeVue gives focus back to what opened a dialog; the prompt is where typing goes on next.
  // Only <body>'s children and the masks in it are watched, not the page (a streamed answer
  // re-renders every frame): a dialog leaves its mask before the mask leaves <body>.
  const onRemoved = (records: MutationRecord[]): void => {
    if (!records.some((r) => [...r.removedNodes].some(isDialog))) return;
    if (document.querySelector(DIALOG)) return;
    focusPrompt();
  };
  const inMasks = typeof MutationObserver === 'undefined' ? null : new MutationObserver(onRemoved);
  const observer = typeof MutationObserver === 'undefined' ? null : new MutationObserver((records) => {
    for (const r of records) {
      for (const node of r.addedNodes) if (node instanceof Element && node.matches(MASK)) inMasks?.observe(node, { childList: true, subtree: true });
    }
    onRemoved(records);
  });
  observer?.observe(document.body, { childList: true });
  onScopeDispose(() => {
    observer?.disconnect();
    inMasks?.disconnect();
  });
}
