/**
 * The Responses interface: create (streamed or plain; continued through `previous_response_id`),
 * retrieve and delete stored responses by id, compact a chain, and the local tree of chains.
 *
 * The tree is the app's own record of what it has seen of the service's stored responses: one
 * node per response (created here, or opened by id) and per compaction, linked to its parent
 * (`previous_response_id`, or the compaction a continuation started from). It is kept in the
 * store, so chains are browsable offline; each node says whether the service still holds it.
 */
import { z } from 'zod';
import { call, stream } from '../../contract/define';
import type { RunRecord } from '../../contract/runs';
import { ConnectionIdSchema, textSendSchema, type TextStreamChunk } from '../../contract/text';

const InputItemSchema = z.looseObject({});

/** Structure only: the rules are checked by shared/validate/responses (worded for a person). */
export const ResponsesRequestSchema = z.looseObject({
  model: z.string().min(1, 'choose a model').max(200),
  input: z.union([z.string().max(10_000_000), z.array(InputItemSchema).min(1, 'add at least one input item').max(10_000)]),
  previous_response_id: z.string().max(200).nullable().optional(),
  instructions: z.string().nullable().optional(),
  store: z.boolean().nullable().optional(),
  stream: z.boolean().nullable().optional(),
});

export const ResponsesCreateSchema = textSendSchema(ResponsesRequestSchema);
export type ResponsesCreateInput = z.input<typeof ResponsesCreateSchema>;

/** A response id as the service gives it (UUID), or a compaction id (`cmp_…`). */
export const ResponseIdSchema = z
  .string()
  .trim()
  .min(1, 'enter a response id')
  .max(200)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'a response id is letters, digits, dashes and underscores');

export const ResponseRefSchema = z.object({ connectionId: ConnectionIdSchema.optional(), id: ResponseIdSchema }).strict();

export const CompactSchema = z
  .object({
    connectionId: ConnectionIdSchema.optional(),
    /** The model that writes the summary. */
    model: z.string().min(1, 'choose a model').max(200),
    /** Compact the chain ending at this response (its inputs and outputs, as recorded here). */
    responseId: ResponseIdSchema,
  })
  .strict();

/** Where the service stands on a node, as far as the app knows. */
export type ResponseServerState = 'stored' | 'not_stored' | 'deleted' | 'expired' | 'missing';

/** A message folded into a compaction (shown as "what was dropped"). */
export interface DroppedMessage {
  role: string;
  preview: string;
}

export interface ResponseNode {
  /** Response id, or `cmp_…` for a compaction. */
  id: string;
  kind: 'response' | 'compaction';
  parentId: string | null;
  connectionId: string;
  /** The run that created it here (or last retrieved it, for one made elsewhere). */
  runId: string | null;
  model: string;
  /** Epoch ms. */
  createdAt: number;
  /** Epoch ms when the service deletes it (created + 30 days); null when it was not stored. */
  expiresAt: number | null;
  serverState: ResponseServerState;
  /** The service's status for a response: `completed`, `incomplete`, `in_progress`. */
  status: string | null;
  inputPreview: string;
  outputPreview: string;
  /** Compactions: messages dropped, and tokens the next turn no longer sends. */
  droppedMessages?: DroppedMessage[];
  droppedMessageCount?: number;
  tokensSaved?: number | null;
  /** Compactions: the item to pass as input to continue from it (opaque to the app). */
  compactionItem?: Record<string, unknown>;
}

/** Every node of the chain tree containing a node: the root first, then in creation order. */
export interface ResponseTree {
  rootId: string;
  nodes: ResponseNode[];
}

export const responsesContract = {
  create: stream<TextStreamChunk, RunRecord>()(ResponsesCreateSchema),
  /** GET /v1/responses/{id}: recorded as a run; adds or refreshes the node (also for ones made elsewhere). */
  retrieve: call<RunRecord>()(ResponseRefSchema),
  /** DELETE /v1/responses/{id}: recorded as a run; the node is marked deleted on the server. */
  remove: call<RunRecord>()(ResponseRefSchema),
  /** POST /v1/responses/compact over the recorded chain ending at `responseId`. */
  compact: call<RunRecord>()(CompactSchema),
  /** The tree containing a node (offline: from the store). */
  tree: call<ResponseTree>()(ResponseRefSchema),
  /** The most recent chains (their roots), newest first, for picking one. */
  chains: call<ResponseNode[]>()(
    z.object({ connectionId: ConnectionIdSchema.optional(), limit: z.number().int().min(1).max(200).default(50) }).strict(),
  ),
};
