/**
 * DraftsService: each playground's unsent form, kept in the database so a reload, a restart or a
 * crash loses nothing. The renderer debounces its writes and flushes them when the page hides.
 * Every write and clear bumps the key's revision and is announced through `drafts.changed`
 * (which page wrote it, and the revision), so another window showing the same playground can take
 * the new draft when it has no unsaved typing of its own.
 */
import { DRAFT_MAX_BYTES, DRAFT_MAX_KEYS, draftTooLargeMessage, type Draft, type DraftChange } from '../../shared/contract/drafts';
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { Db } from '../store/db';
import { clearDraft, getDraft, listDrafts, putDraft, type StoredDraft } from '../store/drafts';

export interface DraftsServiceOptions {
  db: Db;
  /** Announces a change to every window (`drafts.changed`). */
  emitChanged: (change: DraftChange) => void;
  log?: (line: string) => void;
  now?: () => number;
  /** Tests lower the bound; the app uses DRAFT_MAX_BYTES. */
  maxBytes?: number;
}

export class DraftsService {
  private readonly maxBytes: number;
  private readonly now: () => number;

  constructor(private readonly options: DraftsServiceOptions) {
    this.maxBytes = options.maxBytes ?? DRAFT_MAX_BYTES;
    this.now = options.now ?? Date.now;
  }

  /** Every draft that holds a form (what a page reads before its first paint). */
  list(): Draft[] {
    return listDrafts(this.options.db).flatMap((row) => {
      const draft = this.toDraft(row);
      return draft.state === null ? [] : [draft];
    });
  }

  /** The draft under `key`; state null (revision 0) when there is none. */
  get(key: string): Draft {
    const row = getDraft(this.options.db, key);
    return row ? this.toDraft(row) : { key, revision: 0, state: null, updatedAt: 0 };
  }

  /** Replaces the draft (last writer wins). Refuses one over the size bound, saying its size. */
  put(key: string, state: unknown, writer: string): { revision: number; updatedAt: number } {
    const json = JSON.stringify(state);
    const bytes = Buffer.byteLength(json, 'utf8');
    if (bytes > this.maxBytes) {
      throw new WorkbenchFailure({
        code: 'invalid_input',
        message: draftTooLargeMessage(bytes, this.maxBytes),
        issues: [{ path: 'state', message: `${bytes} bytes is over the ${this.maxBytes}-byte limit` }],
      });
    }
    const updatedAt = this.now();
    const revision = putDraft(this.options.db, key, json, writer, updatedAt, DRAFT_MAX_KEYS);
    // A new key past DRAFT_MAX_KEYS is refused: the keys are playground names, not user data.
    if (revision === null) {
      throw new WorkbenchFailure({ code: 'invalid_input', message: `Drafts are kept for at most ${DRAFT_MAX_KEYS} forms; "${key}" is one too many.` });
    }
    this.options.emitChanged({ key, revision, writer, cleared: false });
    return { revision, updatedAt };
  }

  /** Empties the draft ("New"); answers what it held so the page can offer Undo. */
  clear(key: string, writer: string): { revision: number; previous: unknown } {
    const cleared = clearDraft(this.options.db, key, writer, this.now());
    if (!cleared) return { revision: 0, previous: null };
    this.options.emitChanged({ key, revision: cleared.revision, writer, cleared: true });
    return { revision: cleared.revision, previous: this.parse(cleared.previous) };
  }

  private toDraft(row: StoredDraft): Draft {
    return { key: row.key, revision: row.revision, state: this.parse(row), updatedAt: row.updatedAt };
  }

  /** A row whose JSON no longer parses (hand-edited) reads as no draft, and is said in the log. */
  private parse(row: StoredDraft): unknown {
    if (row.stateJson === null) return null;
    try {
      return JSON.parse(row.stateJson) as unknown;
    } catch {
      this.options.log?.(`drafts: the draft "${row.key}" (revision ${row.revision}) is not valid JSON; it is ignored`);
      return null;
    }
  }
}
