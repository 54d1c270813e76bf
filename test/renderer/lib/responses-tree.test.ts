import { describe, expect, it } from 'vitest';
import type { ResponseNode } from '@shared/families/responses/contract';
import { continueBlockedReason, nodeStateText, treeRows } from '@/families/responses/lib/responses-tree';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

function node(id: string, parentId: string | null, createdAt: number, over: Partial<ResponseNode> = {}): ResponseNode {
  return {
    id, kind: 'response', parentId, connectionId: 'sandbox', runId: `run-${id}`, model: 'svc-4', createdAt,
    expiresAt: createdAt + 30 * DAY, serverState: 'stored', status: 'completed', inputPreview: `in ${id}`, outputPreview: `out ${id}`, ...over,
  };
}

describe('responses-tree', () => {
  describe('treeRows()', () => {
    it('lists the chain depth first with siblings oldest first', () => {
      const nodes = [node('a', null, 1), node('b', 'a', 2), node('c', 'b', 3), node('b2', 'a', 4), node('d', 'b2', 5)];
      const rows = treeRows({ rootId: 'a', nodes: [...nodes].reverse() });
      expect(rows.map((r) => [r.node.id, r.depth, r.hasChildren])).toEqual([
        ['a', 0, true],
        ['b', 1, true],
        ['c', 2, false],
        ['b2', 1, true],
        ['d', 2, false],
      ]);
    });

    it('shows a node whose parent is not recorded at the top level instead of losing it', () => {
      const rows = treeRows({ rootId: 'a', nodes: [node('a', null, 1), node('x', 'unknown', 2)] });
      expect(rows.map((r) => [r.node.id, r.depth])).toEqual([
        ['a', 0],
        ['x', 0],
      ]);
    });
  });

  describe('nodeStateText()', () => {
    it('says when the service will delete a stored response', () => {
      expect(nodeStateText(node('a', null, NOW), NOW)).toBe('deleted by the service on 21 Dec 2026 (in 30 days)');
      expect(nodeStateText(node('a', null, NOW - 29 * DAY), NOW)).toBe('deleted by the service on 22 Nov 2026 (in 1 day)');
    });

    it('names the state of a response the service does not hold', () => {
      expect(nodeStateText(node('a', null, NOW, { serverState: 'not_stored', expiresAt: null }), NOW)).toBe('not stored (store was off)');
      expect(nodeStateText(node('a', null, NOW, { serverState: 'deleted' }), NOW)).toBe('deleted');
      expect(nodeStateText(node('a', null, NOW, { serverState: 'missing' }), NOW)).toBe('missing on the service');
      expect(nodeStateText(node('a', null, NOW - 31 * DAY), NOW)).toBe('expired on 20 Nov 2026');
    });
  });

  describe('continueBlockedReason()', () => {
    it('allows a stored response and a compaction with its item', () => {
      expect(continueBlockedReason(node('a', null, NOW), NOW)).toBeNull();
      expect(continueBlockedReason(node('cmp_1', 'a', NOW, { kind: 'compaction', compactionItem: { type: 'compaction' } }), NOW)).toBeNull();
    });

    it('refuses a deleted, unstored or expired response with the reason', () => {
      expect(continueBlockedReason(node('a', null, NOW, { serverState: 'deleted' }), NOW)).toBe(
        "Can't continue from a: it was deleted on the service. Pick another node or start a new chain.",
      );
      expect(continueBlockedReason(node('a', null, NOW, { serverState: 'not_stored' }), NOW)).toMatch(/not stored/);
      expect(continueBlockedReason(node('a', null, NOW - 31 * DAY), NOW)).toMatch(/deleted it after 30 days/);
    });
  });
});
