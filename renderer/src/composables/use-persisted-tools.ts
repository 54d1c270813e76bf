/**
 * Keeps a playground's tool set (saved replies included) in main, shared live by every window.
 * The first time a playground opens in a session, a saved set fills an empty form (or gives a form
 * filled by a re-run its saved replies back); after that every change is saved, debounced, and
 * flushed when the view closes.
 *
 * Each save names the revision the form was edited from; main merges it tool by tool with what
 * another window saved meanwhile (services/tool-sets.ts). A change saved by another window
 * (`tools.changed`) replaces a form with no unsaved edits and is merged into one with edits, so
 * the tools added in each window are kept in both. When both changed the same tool, `conflict`
 * says which, and `keepMine()` / `takeTheirs()` settle it: nothing is dropped silently.
 *
 *   const sync = usePersistedTools('chat', { get: () => params.tools, set: (list) => (params.tools = list) });
 */
import { onBeforeUnmount, shallowRef, toRaw, watch, type ShallowRef } from 'vue';
import type { ToolPlayground, ToolSetState } from '@shared/contract/tools';
import { mergeToolSets, sameToolSet } from '@shared/tools/tool-set-merge';
import { withSavedReplies, type ToolSpec } from '@shared/tools/tool-spec';
import { useWorkbench } from '../api';
import { toWorkbenchError } from '../lib/errors';
import { useWorkbenchEvent } from './use-workbench-event';

const SAVE_DELAY_MS = 500;

/** A save or a remote change that could not be merged: the tools both windows changed. */
export interface ToolSetConflict {
  message: string;
  tools: string[];
}

export interface PersistedTools {
  conflict: ShallowRef<ToolSetConflict | null>;
  /** Saves this window's set over the other window's. */
  keepMine(): Promise<void>;
  /** Replaces this window's set with the saved one. */
  takeTheirs(): Promise<void>;
}

/** What this session last agreed with main, per playground: the revision and its tools. */
const synced = new Map<ToolPlayground, { revision: number; base: ToolSpec[] }>();

/** A plain copy the bridge can send (no reactive proxies). */
function plain(list: readonly ToolSpec[]): ToolSpec[] {
  return JSON.parse(JSON.stringify(toRaw(list))) as ToolSpec[];
}

export function usePersistedTools(playground: ToolPlayground, tools: { get(): ToolSpec[]; set(list: ToolSpec[]): void }): PersistedTools {
  const api = useWorkbench();
  const conflict = shallowRef<ToolSetConflict | null>(null);
  let timer: ReturnType<typeof setTimeout> | null = null;
  let inFlight = false;
  let saveAgain = false;
  /** The newest remote change that arrived while a save was in flight. */
  let stashed: ToolSetState | null = null;

  const current = (): ToolSpec[] => plain(tools.get());
  const setForm = (list: ToolSpec[]): void => {
    if (!sameToolSet(list, current())) tools.set(list);
  };
  const adopt = (state: ToolSetState): void => {
    synced.set(playground, { revision: state.revision, base: state.tools });
    conflict.value = null;
    setForm(state.tools);
  };
  const showConflict = (names: string[], message?: string): void => {
    const list = names.map((n) => `"${n}"`).join(', ');
    conflict.value = { tools: names, message: message ?? `${list} also changed in another window. Keep your version or take theirs.` };
  };

  /** A state main sent (an event, or a load after the view reopened). */
  function receive(state: ToolSetState): void {
    const known = synced.get(playground);
    if (known && state.revision <= known.revision) return;
    if (inFlight) {
      if (!stashed || state.revision > stashed.revision) stashed = state;
      return;
    }
    const form = current();
    if (!known || sameToolSet(form, known.base)) return adopt(state);
    // Unsaved edits here: merge the other window's change in; the pending save sends the result.
    const merged = mergeToolSets(known.base, form, state.tools);
    if (!merged.ok) return showConflict(merged.conflicts);
    synced.set(playground, { revision: state.revision, base: state.tools });
    setForm(merged.tools);
  }

  async function save(): Promise<void> {
    timer = null;
    const known = synced.get(playground);
    if (!known) return;
    if (inFlight) return void (saveAgain = true);
    const sent = current();
    if (sameToolSet(sent, known.base)) return;
    inFlight = true;
    try {
      const saved = await api.tools.save({ playground, baseRevision: known.revision, tools: sent });
      const form = current();
      if (sameToolSet(form, sent)) adopt(saved);
      else {
        // Typed on while the save was out: keep that typing, with whatever the merge brought in.
        synced.set(playground, { revision: saved.revision, base: saved.tools });
        conflict.value = null;
        const merged = mergeToolSets(sent, form, saved.tools);
        if (merged.ok) setForm(merged.tools);
        else showConflict(merged.conflicts);
      }
    } catch (err) {
      const error = toWorkbenchError(err);
      // Other failures are not worth an error in the playground; the next edit saves again.
      if (error.code === 'conflict') showConflict(error.issues?.map((i) => i.path) ?? [], error.message);
    } finally {
      inFlight = false;
      const next = stashed;
      stashed = null;
      if (next) receive(next);
      if (saveAgain) {
        saveAgain = false;
        void save();
      }
    }
  }

  async function keepMine(): Promise<void> {
    const latest = await api.tools.load({ playground });
    synced.set(playground, { revision: latest.revision, base: latest.tools });
    conflict.value = null;
    await save();
  }

  async function takeTheirs(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    adopt(await api.tools.load({ playground }));
  }

  useWorkbenchEvent('tools', 'changed', (state) => {
    if (state.playground === playground) receive(state);
  });

  api.tools
    .load({ playground })
    .then((saved) => {
      if (synced.has(playground)) return receive(saved);
      // First time this session.
      synced.set(playground, { revision: saved.revision, base: saved.tools });
      if (saved.tools.length === 0) return;
      const form = tools.get();
      // A form filled first (a re-run from History) keeps its tools, with the saved replies back.
      if (form.length === 0) tools.set(saved.tools);
      else if (form.some((t) => !t.savedReply && saved.tools.some((s) => s.name === t.name && s.savedReply))) tools.set(withSavedReplies(form, saved.tools));
    })
    .catch(() => undefined);

  watch(
    () => tools.get(),
    () => {
      if (timer) clearTimeout(timer);
      timer = null;
      const known = synced.get(playground);
      if (known && sameToolSet(current(), known.base)) return;
      timer = setTimeout(() => void save(), SAVE_DELAY_MS);
    },
    { deep: true },
  );

  onBeforeUnmount(() => {
    if (!timer) return;
    clearTimeout(timer);
    void save();
  });

  return { conflict, keepMine, takeTheirs };
}

/** Tests: forget what was synced, as a new session would. */
export function resetPersistedToolsForTests(): void {
  synced.clear();
}
