/**
 * Commands the keyboard shortcuts run (lib/shortcuts.ts), handled by whoever is on screen: a view
 * registers what its command means for as long as it lives, e.g. a playground's "New":
 *
 *   useCommand('playground.new', () => form.startNew());
 *
 * The latest registration of a command wins (a view opened over another takes it over); when it
 * goes away the one before it is back.
 */
import { getCurrentScope, onScopeDispose } from 'vue';
import type { CommandId } from '../lib/shortcuts';

type Handler = () => void;

const handlers = new Map<CommandId, Handler[]>();

/** Handles `id` until the calling scope ends; returns the function that stops it early. */
export function useCommand(id: CommandId, handler: Handler): () => void {
  const list = handlers.get(id) ?? [];
  list.push(handler);
  handlers.set(id, list);
  const stop = (): void => {
    const at = list.indexOf(handler);
    if (at >= 0) list.splice(at, 1);
  };
  if (getCurrentScope()) onScopeDispose(stop);
  return stop;
}

/** Runs `id`'s current handler; false when nothing on screen handles it. */
export function runCommand(id: CommandId): boolean {
  const handler = handlers.get(id)?.at(-1);
  if (!handler) return false;
  handler();
  return true;
}
