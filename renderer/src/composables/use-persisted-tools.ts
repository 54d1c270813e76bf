/**
 * Keeps a playground's tool set (saved replies included) across restarts: main stores it
 * (tools.load / tools.save). The first time a playground opens in a session, a saved set fills an
 * empty form (or gives a form filled by a re-run its saved replies back); after that every change
 * is saved, debounced, and flushed when the view closes.
 *
 *   usePersistedTools('chat', { get: () => params.tools, set: (list) => (params.tools = list) });
 */
import { onBeforeUnmount, toRaw, watch } from 'vue';
import type { ToolPlayground } from '@shared/contract/tools';
import { withSavedReplies, type ToolSpec } from '@shared/tools/tool-spec';
import { useWorkbench } from '../api';

const SAVE_DELAY_MS = 500;

/** Playgrounds whose saved set has been offered to the form this session. */
const restored = new Set<ToolPlayground>();

/** A plain copy the bridge can send (no reactive proxies). */
function plain(list: readonly ToolSpec[]): ToolSpec[] {
  return JSON.parse(JSON.stringify(toRaw(list))) as ToolSpec[];
}

export function usePersistedTools(playground: ToolPlayground, tools: { get(): ToolSpec[]; set(list: ToolSpec[]): void }): void {
  const api = useWorkbench();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pending: ToolSpec[] | null = null;

  const save = (): void => {
    timer = null;
    if (!pending) return;
    const list = pending;
    pending = null;
    // Losing a save is not worth an error in the playground; the next edit saves again.
    api.tools.save({ playground, tools: list }).catch(() => undefined);
  };

  if (!restored.has(playground)) {
    restored.add(playground);
    api.tools
      .load({ playground })
      .then((saved) => {
        if (saved.length === 0) return;
        const current = tools.get();
        // A form filled first (a re-run from History) keeps its tools, with the saved replies back.
        if (current.length === 0) tools.set(saved);
        else if (current.some((t) => !t.savedReply && saved.some((s) => s.name === t.name && s.savedReply))) tools.set(withSavedReplies(current, saved));
      })
      .catch(() => undefined);
  }

  watch(
    () => tools.get(),
    (list) => {
      pending = plain(list);
      if (timer) clearTimeout(timer);
      timer = setTimeout(save, SAVE_DELAY_MS);
    },
    { deep: true },
  );

  onBeforeUnmount(() => {
    if (timer) clearTimeout(timer);
    save();
  });
}

/** Tests: forget which playgrounds were restored, as a new session would. */
export function resetPersistedToolsForTests(): void {
  restored.clear();
}
