/**
 * The response-chain repository (table `response_nodes`, migration 0005): upsert a node as a
 * response is created, retrieved or compacted; mark what the service said about it (deleted,
 * missing, expired); read a whole tree, a node's ancestors, or the newest chains. Reads apply
 * the 30-day expiry against `now`, so a chain shows as expired offline, without asking the service.
 */
import type { DroppedMessage, ResponseNode, ResponseServerState, ResponseTree } from '../../shared/families/responses/contract';
import type { Db } from './db';
import { prepare, timed } from './query';

interface NodeRow {
  connection_id: string;
  id: string;
  kind: string;
  parent_id: string | null;
  run_id: string | null;
  model: string;
  created_at: number;
  expires_at: number | null;
  server_state: string;
  status: string | null;
  input_preview: string;
  output_preview: string;
  dropped_json: string | null;
  tokens_saved: number | null;
  compaction_item_json: string | null;
}

const COLUMNS = `connection_id, id, kind, parent_id, run_id, model, created_at, expires_at, server_state, status,
  input_preview, output_preview, dropped_json, tokens_saved, compaction_item_json`;

/** Longest chain walked when looking for a root: a guard against a corrupt cycle. */
const MAX_DEPTH = 10_000;

/**
 * Adds a node or refreshes one already known. A refresh keeps what only the first sighting knows
 * (the creating run, the input preview) and a parent it had when the new sighting gives none;
 * everything else takes the new values.
 */
export function upsertResponseNode(db: Db, node: ResponseNode): void {
  const dropped =
    node.droppedMessages !== undefined || node.droppedMessageCount !== undefined
      ? JSON.stringify({ messages: node.droppedMessages ?? [], count: node.droppedMessageCount ?? node.droppedMessages?.length ?? 0 })
      : null;
  timed(db, 'upsertResponseNode', () =>
    prepare(
      db,
      `INSERT INTO response_nodes (${COLUMNS})
       VALUES (@connectionId, @id, @kind, @parentId, @runId, @model, @createdAt, @expiresAt, @serverState, @status,
         @inputPreview, @outputPreview, @dropped, @tokensSaved, @compactionItem)
       ON CONFLICT (connection_id, id) DO UPDATE SET
         kind = excluded.kind,
         parent_id = COALESCE(excluded.parent_id, response_nodes.parent_id),
         run_id = COALESCE(response_nodes.run_id, excluded.run_id),
         model = CASE WHEN excluded.model = '' THEN response_nodes.model ELSE excluded.model END,
         created_at = excluded.created_at,
         expires_at = excluded.expires_at,
         server_state = excluded.server_state,
         status = COALESCE(excluded.status, response_nodes.status),
         input_preview = CASE WHEN response_nodes.input_preview = '' THEN excluded.input_preview ELSE response_nodes.input_preview END,
         output_preview = CASE WHEN excluded.output_preview = '' THEN response_nodes.output_preview ELSE excluded.output_preview END,
         dropped_json = COALESCE(excluded.dropped_json, response_nodes.dropped_json),
         tokens_saved = COALESCE(excluded.tokens_saved, response_nodes.tokens_saved),
         compaction_item_json = COALESCE(excluded.compaction_item_json, response_nodes.compaction_item_json)`,
    ).run({
      connectionId: node.connectionId,
      id: node.id,
      kind: node.kind,
      parentId: node.parentId,
      runId: node.runId,
      model: node.model,
      createdAt: node.createdAt,
      expiresAt: node.expiresAt,
      serverState: node.serverState,
      status: node.status,
      inputPreview: node.inputPreview,
      outputPreview: node.outputPreview,
      dropped,
      tokensSaved: node.tokensSaved ?? null,
      compactionItem: node.compactionItem ? JSON.stringify(node.compactionItem) : null,
    }),
  );
}

/** Records what the service said about a node. Returns false when the node is not known. */
export function setResponseNodeState(db: Db, connectionId: string, id: string, state: ResponseServerState): boolean {
  return timed(db, 'setResponseNodeState', () =>
    prepare(db, 'UPDATE response_nodes SET server_state = ? WHERE connection_id = ? AND id = ?').run(state, connectionId, id).changes > 0,
  );
}

/** One node, its state as of `now` (a stored node past its expiry reads as expired), or null. */
export function getResponseNode(db: Db, connectionId: string, id: string, now: number): ResponseNode | null {
  const row = timed(db, 'getResponseNode', () =>
    prepare<[string, string], NodeRow>(db, `SELECT ${COLUMNS} FROM response_nodes WHERE connection_id = ? AND id = ?`).get(connectionId, id),
  );
  return row ? toNode(row, now) : null;
}

/** The node and its known ancestors, the node first and the root last. */
export function responseLineage(db: Db, connectionId: string, id: string, now: number): ResponseNode[] {
  const out: ResponseNode[] = [];
  const seen = new Set<string>();
  let next: string | null = id;
  while (next !== null && !seen.has(next) && out.length < MAX_DEPTH) {
    seen.add(next);
    const node = getResponseNode(db, connectionId, next, now);
    if (!node) break;
    out.push(node);
    next = node.parentId;
  }
  return out;
}

/** The whole tree containing `id`: its root first, then every descendant in creation order. Null if unknown. */
export function responseTree(db: Db, connectionId: string, id: string, now: number): ResponseTree | null {
  const lineage = responseLineage(db, connectionId, id, now);
  if (lineage.length === 0) return null;
  const rootId = lineage[lineage.length - 1].id;
  const rows = timed(db, 'responseTree', () =>
    prepare<[{ conn: string; root: string }], NodeRow>(
      db,
      `WITH RECURSIVE sub(id) AS (
         SELECT id FROM response_nodes WHERE connection_id = @conn AND id = @root
         UNION
         SELECT n.id FROM response_nodes n JOIN sub ON n.parent_id = sub.id WHERE n.connection_id = @conn
       )
       SELECT ${COLUMNS} FROM response_nodes
       WHERE connection_id = @conn AND id IN (SELECT id FROM sub)
       ORDER BY (id = @root) DESC, created_at, rowid`,
    ).all({ conn: connectionId, root: rootId }),
  );
  return { rootId, nodes: rows.map((r) => toNode(r, now)) };
}

/** The roots of the newest chains (nodes whose parent is unknown here), newest first. */
export function responseChains(db: Db, connectionId: string, limit: number, now: number): ResponseNode[] {
  const rows = timed(db, 'responseChains', () =>
    prepare<[string, number], NodeRow>(
      db,
      `SELECT ${COLUMNS} FROM response_nodes n
       WHERE n.connection_id = ? AND (n.parent_id IS NULL OR NOT EXISTS (
         SELECT 1 FROM response_nodes p WHERE p.connection_id = n.connection_id AND p.id = n.parent_id))
       ORDER BY n.created_at DESC, n.rowid DESC
       LIMIT ?`,
    ).all(connectionId, limit),
  );
  return rows.map((r) => toNode(r, now));
}

function toNode(row: NodeRow, now: number): ResponseNode {
  const stored = row.server_state as ResponseServerState;
  const node: ResponseNode = {
    id: row.id,
    kind: row.kind === 'compaction' ? 'compaction' : 'response',
    parentId: row.parent_id,
    connectionId: row.connection_id,
    runId: row.run_id,
    model: row.model,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    serverState: stored === 'stored' && row.expires_at !== null && now > row.expires_at ? 'expired' : stored,
    status: row.status,
    inputPreview: row.input_preview,
    outputPreview: row.output_preview,
  };
  if (row.dropped_json !== null) {
    const dropped = JSON.parse(row.dropped_json) as { messages: DroppedMessage[]; count: number };
    node.droppedMessages = dropped.messages;
    node.droppedMessageCount = dropped.count;
  }
  if (row.kind === 'compaction') node.tokensSaved = row.tokens_saved;
  if (row.compaction_item_json !== null) node.compactionItem = JSON.parse(row.compaction_item_json) as Record<string, unknown>;
  return node;
}
