/**
 * The playgrounds' run shortcuts: Ctrl/Cmd+Enter sends, Esc stops while a run is busy. One
 * window listener for the calling component's lifetime (see use-key-listener.ts).
 */
import { useKeyListener } from './use-key-listener';
import { isSendShortcut } from '../lib/shortcuts';

export interface SendShortcuts {
  send: () => void;
  stop: () => void;
  /** Whether Esc has something to stop right now. */
  busy: () => boolean;
}

/** Wires Ctrl/Cmd+Enter to `send` and Esc (while busy) to `stop`. */
export function useSendShortcuts({ send, stop, busy }: SendShortcuts): void {
  useKeyListener((e) => {
    if (isSendShortcut(e)) {
      e.preventDefault();
      send();
    } else if (e.key === 'Escape' && busy()) {
      e.preventDefault();
      stop();
    }
  });
}
