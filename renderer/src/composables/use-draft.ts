/**
 * Keeps a form as a draft in main, so a reload, a restart or a crash loses nothing:
 *
 *   const draft = useDraft('chat', () => ({ model: model.value, params: params.value }), (s) => (s ? fill(s) : reset()));
 *
 * - Restore: the draft read before the first paint (draft-cache.ts) is applied synchronously,
 *   while the store is being created, so nothing the user types can come before it. When the
 *   preload did not complete, main is asked, and its answer only fills a form nobody touched since.
 * - Save: every change is written after `DRAFT_SAVE_DELAY_MS` of quiet (at most
 *   `DRAFT_MAX_WAIT_MS` after the first unsaved change), and at once when the page hides or
 *   unloads. A form equal to what was last saved or restored is never written.
 * - Another window: its change (`drafts.changed` with a newer revision) replaces this form when
 *   this form has nothing unsaved; otherwise this form is kept, saved over the other, and said.
 * - New: `startNew()` empties the form (`applyState(null)`) and the kept draft; `undo()` brings the
 *   previous form back for `UNDO_VISIBLE_MS`. `replaceWith(fill)` is the same for a form filled from
 *   elsewhere (a run opened from History): what was there can be brought back.
 *
 * `getState` returns the form as a JSON object (the store's form refs); `applyState(saved)` fills
 * the form from one, which an earlier build may have written (check each field, merge objects
 * over the form's defaults: lib/draft-fields.ts), or with null resets it to a fresh form.
 */
import { computed, getCurrentScope, markRaw, onScopeDispose, readonly, ref, shallowRef, watch, type Raw, type Ref } from 'vue';
import { DRAFT_MAX_BYTES, draftTooLargeMessage } from '@shared/contract/drafts';
import type { WorkbenchError } from '@shared/contract/errors';
import { isObject } from '@shared/is-object';
import { useWorkbench } from '../api';
import { toWorkbenchError } from '../lib/errors';
import { takePreloadedDraft } from './draft-cache';
import { useWorkbenchEvent } from './use-workbench-event';
import { onLinkRegained } from './use-link-regained';

export const DRAFT_SAVE_DELAY_MS = 400;
export const DRAFT_MAX_WAIT_MS = 2_000;
export const UNDO_VISIBLE_MS = 15_000;
/** How long "Updated from another window." stays (conflicts and errors stay until dismissed). */
export const ADOPTED_VISIBLE_MS = 8_000;

/** This page's id as a writer: its own `drafts.changed` events are not news to it. */
const WRITER = `page-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;

/** Something about the draft the user should know, shown beside the New button. */
export interface DraftNotice {
  kind: 'conflict' | 'adopted' | 'error';
  message: string;
  /** The failure behind an `error` notice (a save main refused or could not take). */
  error?: WorkbenchError;
}

export interface DraftHandle {
  /** The kept revision this form last matched (0: none). */
  readonly revision: Readonly<Ref<number>>;
  readonly notice: Ref<DraftNotice | null>;
  /** Whether Undo would bring back the form that New (or a replacement) cleared. */
  readonly canUndo: Readonly<Ref<boolean>>;
  /** What happened to the form that Undo would bring back ("New form started."). */
  readonly undoMessage: Readonly<Ref<string>>;
  /** "New": a fresh form; the kept draft is emptied, Undo can bring it back. */
  startNew(): void;
  /** Fills the form with `fill` (e.g. a run opened from History); Undo can bring the previous one back. */
  replaceWith(fill: () => void, message: string): void;
  undo(): void;
  /** Writes an unsaved change now (page hiding, window closing). */
  flush(): void;
}

/** A failed draft call as a notice, keeping the error (the token banner may already say it). */
function errorNotice(failure: unknown): DraftNotice {
  const error = toWorkbenchError(failure);
  return { kind: 'error', message: error.message, error };
}

const CONFLICT = 'This form was also changed in another window. Your version is kept here and saved over the other.';

/** A kept form as the store reads it back: a JSON object whose fields the store checks one by one. */
export type DraftState = Record<string, unknown>;

export function useDraft(key: string, getState: () => object, applyState: (saved: DraftState | null) => void): Raw<DraftHandle> {
  const api = useWorkbench();
  const revision = ref(0);
  const notice = shallowRef<DraftNotice | null>(null);
  const undoState = shallowRef<DraftState | null>(null);
  /** The form as last saved or restored, as JSON: what "unsaved" is measured against. */
  let lastJson = '';
  let timer: ReturnType<typeof setTimeout> | null = null;
  let firstUnsavedAt = 0;
  let inFlight = 0;
  let undoTimer: ReturnType<typeof setTimeout> | null = null;

  const current = (): string => JSON.stringify(getState());
  const isDirty = (): boolean => inFlight > 0 || current() !== lastJson;

  /** Fills the form from a kept state; one an older build wrote that no longer fits is left out. */
  function restore(state: unknown, rev: number): void {
    try {
      if (state !== null && !isObject(state)) throw new Error('it is not a form');
      applyState(state);
    } catch (error) {
      notice.value = { kind: 'error', message: `The kept draft could not be restored: ${toWorkbenchError(error).message}` };
    }
    revision.value = rev;
    lastJson = current();
  }

  function clearTimer(): void {
    if (timer) clearTimeout(timer);
    timer = null;
  }

  function save(): void {
    clearTimer();
    firstUnsavedAt = 0;
    const json = current();
    if (json === lastJson) return;
    // UTF-16 units never outnumber UTF-8 bytes: this much is over the bound whatever it holds.
    if (json.length > DRAFT_MAX_BYTES) {
      notice.value = { kind: 'error', message: draftTooLargeMessage(json.length) };
      return;
    }
    lastJson = json;
    inFlight += 1;
    api.drafts
      .put({ key, state: JSON.parse(json) as unknown, writer: WRITER })
      .then(({ revision: saved }) => {
        revision.value = Math.max(revision.value, saved);
        if (notice.value?.kind === 'error') notice.value = null;
      })
      .catch((error: unknown) => {
        // Not saved: the next change (or flush) tries again.
        if (lastJson === json) lastJson = '';
        notice.value = errorNotice(error);
      })
      .finally(() => (inFlight -= 1));
  }

  function schedule(): void {
    const now = Date.now();
    if (!firstUnsavedAt) firstUnsavedAt = now;
    clearTimer();
    timer = setTimeout(save, Math.max(0, Math.min(DRAFT_SAVE_DELAY_MS, firstUnsavedAt + DRAFT_MAX_WAIT_MS - now)));
  }

  function flush(): void {
    if (timer || current() !== lastJson) save();
  }

  /** Another window's newer draft replaces this form, unless this form has something unsaved. */
  async function adopt(atLeast: number, message = 'Updated from another window.'): Promise<void> {
    const draft = await api.drafts.get({ key }).catch(() => null);
    if (!draft || draft.revision < atLeast || draft.revision <= revision.value) return;
    if (isDirty()) {
      keepLocal(draft.revision);
      return;
    }
    restore(draft.state, draft.revision);
    const adopted: DraftNotice = { kind: 'adopted', message };
    notice.value = adopted;
    setTimeout(() => {
      if (notice.value === adopted) notice.value = null;
    }, ADOPTED_VISIBLE_MS);
  }

  function keepLocal(otherRevision: number): void {
    revision.value = Math.max(revision.value, otherRevision);
    notice.value = { kind: 'conflict', message: CONFLICT };
    lastJson = '';
    schedule();
  }

  // Restore first, before the watch below exists: a restored form is not a change to save.
  const preloaded = takePreloadedDraft(key);
  if (preloaded) restore(preloaded.state, preloaded.revision);
  lastJson = current();
  if (preloaded === undefined) {
    const untouched = lastJson;
    api.drafts
      .get({ key })
      .then((draft) => {
        if (draft.state === null || draft.revision <= revision.value) return;
        // What the user typed after load is never overwritten; it is saved over the kept draft.
        if (inFlight > 0 || current() !== untouched) keepLocal(draft.revision);
        else restore(draft.state, draft.revision);
      })
      .catch(() => undefined);
  }

  watch(getState, schedule, { deep: true });

  useWorkbenchEvent('drafts', 'changed', (change) => {
    if (change.key !== key || change.writer === WRITER || change.revision <= revision.value) return;
    if (isDirty()) keepLocal(change.revision);
    else void adopt(change.revision);
  });
  // Cut off from main (a restart, a refused token), the page missed those events, or could not
  // read the draft at all: the kept one is taken now as another window's would be.
  onLinkRegained(() => void adopt(0, 'Brought up to date with the draft kept while this page was cut off.'));

  const undoMessage = ref('New form started.');

  /** Keeps `previous` for Undo for UNDO_VISIBLE_MS, saying what happened to it. */
  function offerUndo(previous: DraftState, message: string): void {
    undoState.value = previous;
    undoMessage.value = message;
    notice.value = null;
    if (undoTimer) clearTimeout(undoTimer);
    undoTimer = setTimeout(() => (undoState.value = null), UNDO_VISIBLE_MS);
  }

  function replaceWith(fill: () => void, message: string): void {
    const previous = JSON.parse(current()) as DraftState;
    fill();
    // The filled form is saved as any change is (the watch); only the way back is new.
    offerUndo(previous, message);
  }

  function startNew(): void {
    clearTimer();
    const previous = JSON.parse(current()) as DraftState;
    applyState(null);
    lastJson = current();
    offerUndo(previous, 'New form started.');
    api.drafts
      .clear({ key, writer: WRITER })
      .then(({ revision: cleared }) => (revision.value = Math.max(revision.value, cleared)))
      .catch((error: unknown) => (notice.value = errorNotice(error)));
  }

  function undo(): void {
    const previous = undoState.value;
    if (previous === null) return;
    undoState.value = null;
    if (undoTimer) clearTimeout(undoTimer);
    applyState(JSON.parse(JSON.stringify(previous)) as DraftState);
    lastJson = '';
    save();
  }

  const onHide = (): void => flush();
  const onVisibility = (): void => {
    if (document.visibilityState === 'hidden') flush();
  };
  if (typeof window !== 'undefined') {
    window.addEventListener('pagehide', onHide);
    window.addEventListener('beforeunload', onHide);
    document.addEventListener('visibilitychange', onVisibility);
  }
  if (getCurrentScope()) {
    onScopeDispose(() => {
      flush();
      clearTimer();
      if (undoTimer) clearTimeout(undoTimer);
      if (typeof window === 'undefined') return;
      window.removeEventListener('pagehide', onHide);
      window.removeEventListener('beforeunload', onHide);
      document.removeEventListener('visibilitychange', onVisibility);
    });
  }

  // Raw: a store returns the handle as is, so its refs stay refs rather than unwrapped by the store.
  return markRaw({
    revision: readonly(revision),
    notice,
    canUndo: computed(() => undoState.value !== null),
    undoMessage: readonly(undoMessage),
    startNew,
    replaceWith,
    undo,
    flush,
  });
}
