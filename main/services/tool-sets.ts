/**
 * Each playground's tool set, kept in the settings table under `tools.<playground>` as
 * `{revision, tools}`, and shared live by every window: each save is broadcast as `tools.changed`.
 *
 * Saves are optimistic: a window saves against the revision it last saw. Based on the current
 * revision, the save replaces the set; based on an older one (another window saved meanwhile), it
 * is merged tool by tool with what was saved since (shared/tools/tool-set-merge.ts), so a tool
 * added in one window and another added in a second window are both kept. A tool both windows
 * changed differently is refused as a `conflict`, naming it, and nothing is written. Merging needs
 * the version the stale window started from: the last BASES_KEPT revisions of each set are kept in
 * memory; a save based on an older one (or one from before a restart) is refused the same way.
 */
import type { ToolPlayground, ToolSetState } from '../../shared/contract/tools';
import { WorkbenchFailure } from '../../shared/contract/errors';
import { mergeToolSets } from '../../shared/tools/tool-set-merge';
import type { ToolSpec } from '../../shared/tools/tool-spec';
import type { TypedEmit } from '../../shared/contract/typed-emit';
import type { Db } from '../store/db';
import { getSetting, setSetting } from '../store/settings';
import { isObject } from '../../shared/is-object';

/** How many earlier revisions of each set are kept to merge stale saves against. */
export const BASES_KEPT = 32;

const keyOf = (playground: ToolPlayground): string => `tools.${playground}`;

interface StoredSet {
  revision: number;
  tools: ToolSpec[];
}

/** The stored set; a bare list (builds before revisions) is revision 0, anything else none. */
function readStored(db: Db, playground: ToolPlayground): StoredSet {
  const saved = getSetting<unknown>(db, keyOf(playground));
  if (Array.isArray(saved)) return { revision: 0, tools: saved as ToolSpec[] };
  if (isObject(saved)) {
    const { revision, tools } = saved as Partial<StoredSet>;
    if (Number.isSafeInteger(revision) && Array.isArray(tools)) return { revision: revision!, tools };
  }
  return { revision: 0, tools: [] };
}

export interface ToolSetsServiceOptions {
  db: Db;
  emit: TypedEmit;
}

export class ToolSetsService {
  /** Recent revisions of each set, oldest first (the current one last). */
  private readonly bases = new Map<ToolPlayground, StoredSet[]>();

  constructor(private readonly options: ToolSetsServiceOptions) {}

  /** The saved set with its revision (empty, revision 0, when none was saved). */
  load(playground: ToolPlayground): ToolSetState {
    const stored = readStored(this.options.db, playground);
    this.remember(playground, stored);
    return { playground, ...stored };
  }

  /**
   * Saves `tools`, edited from revision `baseRevision`: replaced when that is the current
   * revision, merged with the saves made since otherwise. Answers (and broadcasts) the new state.
   */
  save(playground: ToolPlayground, baseRevision: number, tools: ToolSpec[]): ToolSetState {
    const current = this.load(playground);
    if (baseRevision > current.revision) {
      throw new WorkbenchFailure({
        code: 'invalid_input',
        message: `Tool set revision ${baseRevision} does not exist yet (the ${playground} set is at revision ${current.revision}).`,
      });
    }
    let next = tools;
    if (baseRevision < current.revision) {
      const base = this.bases.get(playground)?.find((b) => b.revision === baseRevision);
      if (!base) throw staleConflict(playground);
      const merged = mergeToolSets(base.tools, tools, current.tools);
      if (!merged.ok) throw itemConflict(playground, merged.conflicts);
      next = merged.tools;
    }
    const saved: StoredSet = { revision: current.revision + 1, tools: next };
    setSetting(this.options.db, keyOf(playground), saved);
    this.remember(playground, saved);
    const state: ToolSetState = { playground, ...saved };
    this.options.emit('tools.changed', state);
    return state;
  }

  private remember(playground: ToolPlayground, set: StoredSet): void {
    const kept = this.bases.get(playground) ?? [];
    if (kept.at(-1)?.revision === set.revision) return;
    kept.push(set);
    if (kept.length > BASES_KEPT) kept.splice(0, kept.length - BASES_KEPT);
    this.bases.set(playground, kept);
  }
}

function itemConflict(playground: ToolPlayground, names: string[]): WorkbenchFailure {
  const list = names.map((n) => `"${n}"`).join(', ');
  return new WorkbenchFailure({
    code: 'conflict',
    message: `Not saved: ${names.length === 1 ? 'the tool' : 'the tools'} ${list} ${names.length === 1 ? 'was' : 'were'} also changed in another window. Keep your version or take theirs.`,
    issues: names.map((name) => ({ path: name, message: `changed in another window too (${playground} tools)` })),
  });
}

function staleConflict(playground: ToolPlayground): WorkbenchFailure {
  return new WorkbenchFailure({
    code: 'conflict',
    message: `Not saved: the ${playground} tools were changed elsewhere too many times since this window last saw them to merge. Keep your version or take theirs.`,
  });
}
