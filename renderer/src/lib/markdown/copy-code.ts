// The "Copy" buttons on code blocks. One delegated click listener per message root handles them
// all: rendered HTML carries no handlers (sanitised, and the CSP forbids inline script), so these
// buttons cannot be the CopyButton component; they share its clipboard writer instead.
import { writeClipboard } from '../clipboard';

/** Options for {@link createCopyHandler}. */
export interface CopyHandlerOptions {
  /** Writes to the clipboard; defaults to {@link writeClipboard}. */
  writeText?: (text: string) => Promise<void>;
  /** How long the button says "Copied" before going back to "Copy". */
  resetAfterMs?: number;
}

/** A delegated click handler for code-block copy buttons, with timers to dispose. */
export interface CopyHandler {
  /** Attach to the click event of the element containing rendered markdown. */
  onClick(event: Event): void;
  dispose(): void;
}

const LABEL = 'Copy';

/** Creates the handler: a click on `[data-md-copy]` copies the code of its `.md-code` block. */
export function createCopyHandler(options: CopyHandlerOptions = {}): CopyHandler {
  const writeText = options.writeText ?? writeClipboard;
  const resetAfterMs = options.resetAfterMs ?? 1500;
  const timers = new Map<Element, ReturnType<typeof setTimeout>>();

  const show = (button: HTMLElement, label: string): void => {
    button.textContent = label;
    clearTimeout(timers.get(button));
    timers.set(
      button,
      setTimeout(() => {
        timers.delete(button);
        button.textContent = LABEL;
      }, resetAfterMs),
    );
  };

  return {
    onClick(event) {
      const target = event.target as Element | null;
      const button = target?.closest?.('[data-md-copy]') as HTMLElement | null;
      if (!button) return;
      const code = button.closest('.md-code')?.querySelector('pre code')?.textContent ?? '';
      writeText(code).then(
        () => show(button, 'Copied'),
        () => show(button, 'Copy failed'),
      );
    },
    dispose() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
