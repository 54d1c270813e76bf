/**
 * The chain tree as the view shows it: nodes in reading order (depth first, siblings oldest
 * first) with their depth, what the service will do with each (or has done), and whether the
 * next request can continue from it.
 */
import type { ResponseNode, ResponseTree } from '@shared/families/responses/contract';
import { markdownPreviewText } from '../../../lib/markdown/preview-text';

/** One line of the tree: the node and how far it is indented. */
export interface TreeRow {
  node: ResponseNode;
  depth: number;
  /** Whether it has children (for aria-expanded and the connector). */
  hasChildren: boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The tree's nodes, depth first from the root; nodes whose parent is not in the tree start at depth 0. */
export function treeRows(tree: ResponseTree | null): TreeRow[] {
  if (!tree) return [];
  const ids = new Set(tree.nodes.map((n) => n.id));
  const children = new Map<string | null, ResponseNode[]>();
  for (const n of tree.nodes) {
    const parent = n.parentId && ids.has(n.parentId) ? n.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), n]);
  }
  for (const list of children.values()) list.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  const rows: TreeRow[] = [];
  const seen = new Set<string>();
  const walk = (n: ResponseNode, depth: number): void => {
    if (seen.has(n.id)) return;
    seen.add(n.id);
    const kids = children.get(n.id) ?? [];
    rows.push({ node: n, depth, hasChildren: kids.length > 0 });
    for (const k of kids) walk(k, depth + 1);
  };
  const roots = children.get(null) ?? [];
  // The recorded root first, then any orphans.
  roots.sort((a, b) => (a.id === tree.rootId ? -1 : b.id === tree.rootId ? 1 : 0));
  for (const r of roots) walk(r, 0);
  return rows;
}

/** `21 Dec 2026`: unambiguous in every locale. */
export function formatDay(epochMs: number): string {
  return new Date(epochMs).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
}

/** What the service holds of a node, in words: when it deletes it, or why it cannot be used. */
export function nodeStateText(node: ResponseNode, now: number): string {
  if (node.kind === 'compaction') return node.compactionItem ? 'compaction (kept by the app)' : 'compaction (its item was not recorded)';
  switch (node.serverState) {
    case 'not_stored':
      return 'not stored (store was off)';
    case 'deleted':
      return 'deleted';
    case 'expired':
      return 'expired (deleted by the service after 30 days)';
    case 'missing':
      return 'missing on the service';
    case 'stored':
      break;
  }
  if (node.expiresAt === null) return 'stored';
  const left = node.expiresAt - now;
  if (left <= 0) return `expired on ${formatDay(node.expiresAt)}`;
  const days = Math.ceil(left / DAY_MS);
  const when = left < DAY_MS ? 'within a day' : `in ${days} day${days === 1 ? '' : 's'}`;
  return `deleted by the service on ${formatDay(node.expiresAt)} (${when})`;
}

/** Why the next request cannot continue from this node, or null when it can. */
export function continueBlockedReason(node: ResponseNode, now: number): string | null {
  if (node.kind === 'compaction') {
    return node.compactionItem ? null : 'this compaction has no recorded item to send; compact the chain again';
  }
  const why: Partial<Record<ResponseNode['serverState'], string>> = {
    not_stored: 'it was not stored (store was off), so the service cannot continue from it',
    deleted: 'it was deleted on the service',
    expired: 'the service deleted it after 30 days',
    missing: 'the service no longer has it',
  };
  const reason = why[node.serverState];
  if (reason) return `Can't continue from ${shortId(node.id)}: ${reason}. Pick another node or start a new chain.`;
  if (node.expiresAt !== null && node.expiresAt <= now) {
    return `Can't continue from ${shortId(node.id)}: the service deleted it after 30 days. Pick another node or start a new chain.`;
  }
  return null;
}

/** Whether the service may still hold the node (so deleting it means something). */
export function canDelete(node: ResponseNode): boolean {
  return node.kind === 'response' && node.serverState === 'stored';
}

/** Whether the chain up to this node can be compacted (the app has its turns recorded). */
export function canCompact(node: ResponseNode): boolean {
  return node.kind === 'response' && node.status !== 'in_progress';
}

/** A response id short enough for a label (the full id is in the title and the inspector). */
export function shortId(id: string): string {
  return id.length > 14 ? `${id.slice(0, 12)}…` : id;
}

/**
 * A node's input and output previews as the reader sees them: answers are markdown, and a
 * one-line preview showing `**bold**` or `# Title` raw is noise.
 */
export function nodePreviews(node: ResponseNode): { input: string; output: string } {
  return { input: markdownPreviewText(node.inputPreview), output: markdownPreviewText(node.outputPreview) };
}
