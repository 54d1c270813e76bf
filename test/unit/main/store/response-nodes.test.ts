import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateTo } from '../../../../main/store/migrations/index';
import {
  getResponseNode,
  responseChains,
  responseLineage,
  responseTree,
  setResponseNodeState,
  upsertResponseNode,
} from '../../../../main/store/response-nodes';
import type { ResponseNode } from '../../../../shared/families/responses/contract';

const DAY = 86_400_000;

function node(id: string, parentId: string | null, createdAt: number, extra: Partial<ResponseNode> = {}): ResponseNode {
  return {
    id,
    kind: 'response',
    parentId,
    connectionId: 'sandbox',
    runId: null,
    model: 'svc-4',
    createdAt,
    expiresAt: createdAt + 30 * DAY,
    serverState: 'stored',
    status: 'completed',
    inputPreview: `in ${id}`,
    outputPreview: `out ${id}`,
    ...extra,
  };
}

let db: Database.Database;
beforeEach(() => {
  db = new Database(':memory:');
  migrateTo(db);
});
afterEach(() => db.close());

describe('response-nodes', () => {
  describe('responseTree()', () => {
    it('returns the whole tree from any node: root first, then creation order, branches included', () => {
      // a -> b -> c, and a second child of b (d), and a compaction of c (k) continued by e.
      upsertResponseNode(db, node('a', null, 1_000));
      upsertResponseNode(db, node('b', 'a', 1_000)); // same second as a: insertion order decides
      upsertResponseNode(db, node('c', 'b', 3_000));
      upsertResponseNode(db, node('d', 'b', 4_000));
      upsertResponseNode(db, node('k', 'c', 5_000, { kind: 'compaction', expiresAt: null, serverState: 'not_stored', droppedMessages: [{ role: 'user', preview: 'hi' }], droppedMessageCount: 4, tokensSaved: 120, compactionItem: { type: 'compaction', id: 'k', encrypted_content: 'x' } }));
      upsertResponseNode(db, node('e', 'k', 6_000));
      upsertResponseNode(db, node('other', null, 2_000));

      const tree = responseTree(db, 'sandbox', 'e', 10_000);
      expect(tree?.rootId).toBe('a');
      expect(tree?.nodes.map((n) => `${n.id}<${n.parentId ?? ''}`)).toEqual(['a<', 'b<a', 'c<b', 'd<b', 'k<c', 'e<k']);
      expect(tree?.nodes.find((n) => n.id === 'k')).toMatchObject({
        kind: 'compaction',
        droppedMessages: [{ role: 'user', preview: 'hi' }],
        droppedMessageCount: 4,
        tokensSaved: 120,
        compactionItem: { type: 'compaction', id: 'k', encrypted_content: 'x' },
      });
      expect(responseTree(db, 'sandbox', 'nope', 0)).toBeNull();
      expect(responseTree(db, 'other-connection', 'a', 0)).toBeNull();
    });
  });

  describe('upsertResponseNode()', () => {
    it('keeps the creating run and input preview when the same response is seen again', () => {
      upsertResponseNode(db, node('a', null, 1_000, { runId: null, inputPreview: 'first question' }));
      upsertResponseNode(db, node('a', null, 1_000, { inputPreview: '', outputPreview: 'refreshed', status: 'incomplete' }));
      expect(getResponseNode(db, 'sandbox', 'a', 0)).toMatchObject({ inputPreview: 'first question', outputPreview: 'refreshed', status: 'incomplete' });
    });
  });

  describe('getResponseNode()', () => {
    it('reads a stored node past its expiry as expired, and keeps deleted / missing as recorded', () => {
      upsertResponseNode(db, node('a', null, 0));
      upsertResponseNode(db, node('b', null, 0));
      upsertResponseNode(db, node('n', null, 0, { serverState: 'not_stored', expiresAt: null }));
      expect(getResponseNode(db, 'sandbox', 'a', 29 * DAY)?.serverState).toBe('stored');
      expect(getResponseNode(db, 'sandbox', 'a', 31 * DAY)?.serverState).toBe('expired');
      expect(setResponseNodeState(db, 'sandbox', 'b', 'deleted')).toBe(true);
      expect(getResponseNode(db, 'sandbox', 'b', 31 * DAY)?.serverState).toBe('deleted');
      expect(getResponseNode(db, 'sandbox', 'n', 31 * DAY)?.serverState).toBe('not_stored');
      expect(setResponseNodeState(db, 'sandbox', 'zzz', 'missing')).toBe(false);
    });
  });

  describe('responseLineage()', () => {
    it('walks from a node up to its root and stops on a cycle', () => {
      upsertResponseNode(db, node('a', null, 1));
      upsertResponseNode(db, node('b', 'a', 2));
      upsertResponseNode(db, node('c', 'b', 3));
      expect(responseLineage(db, 'sandbox', 'c', 0).map((n) => n.id)).toEqual(['c', 'b', 'a']);
      upsertResponseNode(db, node('x', 'y', 1));
      upsertResponseNode(db, node('y', 'x', 2));
      expect(responseLineage(db, 'sandbox', 'x', 0).map((n) => n.id)).toEqual(['x', 'y']);
    });
  });

  describe('responseChains()', () => {
    it('lists roots (no parent, or a parent not known here) newest first, up to the limit', () => {
      upsertResponseNode(db, node('a', null, 1_000));
      upsertResponseNode(db, node('b', 'a', 2_000));
      upsertResponseNode(db, node('orphan', 'made-elsewhere', 3_000));
      upsertResponseNode(db, node('z', null, 4_000, { expiresAt: 5_000 }));
      expect(responseChains(db, 'sandbox', 10, 6_000).map((n) => [n.id, n.serverState])).toEqual([
        ['z', 'expired'],
        ['orphan', 'stored'],
        ['a', 'stored'],
      ]);
      expect(responseChains(db, 'sandbox', 1, 0).map((n) => n.id)).toEqual(['z']);
    });
  });
});
