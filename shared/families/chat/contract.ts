/**
 * Chat completions. `send` streams whatever the request asks for (stream, plain or deferred): the
 * renderer always sees the same chunk kinds, and the run is recorded in history either way.
 */
import { z } from 'zod';
import { stream } from '../../contract/define';
import type { WorkbenchError } from '../../contract/errors';
import type { RunRecord } from '../../contract/runs';
import { RunIdSchema } from '../../contract/run-id';
import { textSendSchema, type TextStreamChunk } from '../../contract/text';

const ContentPartSchema = z.looseObject({ type: z.string().min(1).max(64) });

export const ChatMessageSchema = z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'tool', 'developer']),
  content: z.union([z.string(), z.array(ContentPartSchema), z.null()]).optional(),
  name: z.string().max(256).optional(),
  tool_call_id: z.string().max(256).optional(),
  tool_calls: z.array(z.looseObject({ id: z.string(), type: z.string(), function: z.looseObject({ name: z.string(), arguments: z.string() }) })).nullable().optional(),
});

/**
 * Structure only: types of the fields the app itself reads. The spec's limits are checked by
 * `validateChatRequest` (shared/validate), which words each rule for a person; unknown extra
 * parameters pass through, so the workbench can send what the service may newly accept.
 */
export const ChatRequestSchema = z.looseObject({
  model: z.string().min(1, 'choose a model').max(200),
  messages: z.array(ChatMessageSchema).min(1, 'add at least one message').max(10_000),
  stream: z.boolean().nullable().optional(),
  deferred: z.boolean().nullable().optional(),
  n: z.number().nullable().optional(),
});

export const ChatSendSchema = textSendSchema(ChatRequestSchema);

export type ChatSendInput = z.input<typeof ChatSendSchema>;

/** What the renderer sees while a chat runs (shared by every text interface). */
export type ChatStreamChunk = TextStreamChunk;

/** The end of a run: the whole record as history keeps it (status says how it ended). */
export type ChatRunResult = RunRecord;

export type { WorkbenchError };

export const chatContract = {
  send: stream<ChatStreamChunk, ChatRunResult>()(ChatSendSchema),
  /**
   * Follows a deferred run already under way (a reloaded chat view): its progress, then the run
   * as recorded. Cancelling this stream only stops following; `jobs.cancel` stops the run.
   */
  follow: stream<ChatStreamChunk, ChatRunResult>()(z.object({ runId: RunIdSchema }).strict()),
};
