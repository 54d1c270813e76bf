/**
 * The drafts main kept, read once when the page starts, so each playground's store can take its
 * draft synchronously when it is created: the form is filled before its first paint, and there is
 * no later moment at which a restore could land on top of what the user has started typing.
 * main.ts starts `preloadDrafts` at once and holds the first navigation until it settles (or
 * `PRELOAD_TIMEOUT_MS` passes; a store then asks main itself, see use-draft.ts).
 */
import type { Draft } from '@shared/contract/drafts';
import type { WorkbenchApi } from '@shared/contract/api';

/** How long the first view waits for the drafts before it shows without them. */
export const PRELOAD_TIMEOUT_MS = 2_000;

const cache = new Map<string, Draft>();
const taken = new Set<string>();
let loaded = false;
let pending: Promise<void> | null = null;

/**
 * Reads every kept draft into the cache (once per page). Resolves when they are in, on failure,
 * or after `timeoutMs`, whichever comes first; never rejects.
 */
export function preloadDrafts(api: WorkbenchApi, timeoutMs = PRELOAD_TIMEOUT_MS): Promise<void> {
  pending ??= api.drafts.list().then(
    (drafts) => {
      for (const draft of drafts) cache.set(draft.key, draft);
      loaded = true;
    },
    // The stores ask for their own draft when the list could not be read.
    () => undefined,
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
  return Promise.race([pending, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The preloaded draft of `key`, handed out once (a later store of the same key asks main).
 * `undefined` when the preload has not completed: the caller must ask main itself; `null` when
 * it completed and there is no draft.
 */
export function takePreloadedDraft(key: string): Draft | null | undefined {
  if (!loaded || taken.has(key)) return undefined;
  taken.add(key);
  const draft = cache.get(key) ?? null;
  cache.delete(key);
  return draft;
}

/** Tests: forget the preload, as a new page would. */
export function resetDraftCacheForTests(): void {
  cache.clear();
  taken.clear();
  loaded = false;
  pending = null;
}
