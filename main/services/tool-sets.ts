/**
 * Each playground's tool set, kept in the settings table under `tools.<playground>`: one row per
 * playground, replaced whole on every save (the renderer debounces its saves).
 */
import type { ToolPlayground } from '../../shared/contract/tools';
import type { ToolSpec } from '../../shared/tools/tool-spec';
import type { Db } from '../store/db';
import { getSetting, setSetting } from '../store/settings';

const keyOf = (playground: ToolPlayground): string => `tools.${playground}`;

/** The saved set, or none; a value that is not a list (hand-edited, older build) reads as none. */
export function loadToolSet(db: Db, playground: ToolPlayground): ToolSpec[] {
  const saved = getSetting<unknown>(db, keyOf(playground));
  return Array.isArray(saved) ? (saved as ToolSpec[]) : [];
}

/** Replaces the set; an empty one removes the row. */
export function saveToolSet(db: Db, playground: ToolPlayground, tools: ToolSpec[]): { saved: number } {
  setSetting(db, keyOf(playground), tools.length > 0 ? tools : undefined);
  return { saved: tools.length };
}
