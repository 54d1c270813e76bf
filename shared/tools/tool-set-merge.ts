/**
 * Three-way merge of a tool set, item by item: what one window saved (`mine`), what the store
 * holds now (`theirs`, saved by another window meanwhile) and the version both started from
 * (`base`). A tool changed, added or removed on one side only takes that side's version; changed
 * the same way on both is kept once; changed differently on both is a conflict, never a silent
 * pick. Main merges stale saves with it (services/tool-sets.ts); the renderer merges a remote
 * change into a form being edited with it (composables/use-persisted-tools.ts).
 *
 * Tools are matched by name. The editor allows a name to repeat while it is being typed, so the
 * key is the name with its occurrence (`get_weather`, `get_weather` #2, ...); a rename is a removal
 * of the old name and an addition of the new one.
 */
import type { ToolSpec } from './tool-spec';
import { isObject } from '../is-object';

export type ToolSetMerge = { ok: true; tools: ToolSpec[] } | { ok: false; conflicts: string[] };

interface Keyed {
  order: string[];
  byKey: Map<string, ToolSpec>;
}

function keyed(list: readonly ToolSpec[]): Keyed {
  const seen = new Map<string, number>();
  const order: string[] = [];
  const byKey = new Map<string, ToolSpec>();
  for (const spec of list) {
    const n = (seen.get(spec.name) ?? 0) + 1;
    seen.set(spec.name, n);
    const key = `${spec.name}\u0000${n}`;
    order.push(key);
    byKey.set(key, spec);
  }
  return { order, byKey };
}

const nameOf = (key: string): string => key.slice(0, key.indexOf('\u0000'));

/** JSON with object keys sorted, so two equal specs compare equal whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isObject(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** Whether two tools (or two absences) are the same. */
function same(a: ToolSpec | undefined, b: ToolSpec | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return canonical(a) === canonical(b);
}

/** Whether two tool sets hold the same tools in the same order. */
export function sameToolSet(a: readonly ToolSpec[], b: readonly ToolSpec[]): boolean {
  return a.length === b.length && canonical(a) === canonical(b);
}

/** Whether `side` kept the tools it shares with `base` in base's order. */
function keptOrder(base: Keyed, side: Keyed): boolean {
  return canonical(side.order.filter((k) => base.byKey.has(k))) === canonical(base.order.filter((k) => side.byKey.has(k)));
}

/**
 * Merges `mine` and `theirs`, both edited from `base`. Order: theirs (saved first), unless only
 * mine reordered the tools; tools only the other side has follow, in its order.
 */
export function mergeToolSets(base: readonly ToolSpec[], mine: readonly ToolSpec[], theirs: readonly ToolSpec[]): ToolSetMerge {
  const b = keyed(base);
  const m = keyed(mine);
  const t = keyed(theirs);
  const result = new Map<string, ToolSpec>();
  const conflicts: string[] = [];
  for (const key of new Set([...b.order, ...m.order, ...t.order])) {
    const [bb, mm, tt] = [b.byKey.get(key), m.byKey.get(key), t.byKey.get(key)];
    const pick = same(mm, bb) ? tt : same(tt, bb) || same(mm, tt) ? mm : null;
    if (pick === null) conflicts.push(nameOf(key) || '(unnamed tool)');
    else if (pick) result.set(key, pick);
  }
  if (conflicts.length > 0) return { ok: false, conflicts: [...new Set(conflicts)] };

  const mineReordered = !keptOrder(b, m);
  const [first, second] = mineReordered && keptOrder(b, t) ? [m.order, t.order] : [t.order, m.order];
  const order = [...new Set([...first, ...second])].filter((k) => result.has(k));
  return { ok: true, tools: order.map((k) => result.get(k)!) };
}
