/**
 * Compare's runs in the History list: runs of one comparison are recorded with the same group
 * id and land next to each other (they start together). Each row of a group learns its place, so
 * the list can draw the group as one block and label its first row "Compare · N models".
 */
import type { RunSummary } from '@shared/contract/runs';

export interface GroupPlace {
  /** The comparison's id. */
  id: string;
  /** Runs of the comparison among the loaded rows. */
  size: number;
  /** This row's position in its block of adjacent rows (0 = the first, which carries the label). */
  index: number;
  /** The last row of its block (the block's bottom border). */
  last: boolean;
}

/** Where each grouped row sits; rows without a group are absent. */
export function groupPlaces(items: readonly RunSummary[]): Map<string, GroupPlace> {
  const sizes = new Map<string, number>();
  for (const item of items) if (item.group) sizes.set(item.group.id, (sizes.get(item.group.id) ?? 0) + 1);
  const places = new Map<string, GroupPlace>();
  for (const [i, item] of items.entries()) {
    const id = item.group?.id;
    if (!id) continue;
    const previous = items[i - 1]?.group?.id === id ? places.get(items[i - 1]!.id) : undefined;
    places.set(item.id, { id, size: sizes.get(id)!, index: previous ? previous.index + 1 : 0, last: items[i + 1]?.group?.id !== id });
  }
  return places;
}
