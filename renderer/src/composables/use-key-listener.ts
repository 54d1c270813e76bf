/** A window keydown listener that lives as long as the calling component's scope. */
import { onScopeDispose } from 'vue';

/** Listens on window (capture phase, so a focused control can't swallow the shortcut first). */
export function useKeyListener(handler: (e: KeyboardEvent) => void): void {
  globalThis.addEventListener('keydown', handler, true);
  onScopeDispose(() => globalThis.removeEventListener('keydown', handler, true));
}
