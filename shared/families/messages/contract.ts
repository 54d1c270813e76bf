/**
 * The Messages interface (`POST /v1/messages`, Anthropic-style): streamed or plain, recorded
 * either way; the renderer sees the same chunk kinds as chat (thinking → reasoning, text →
 * content, tool_use → tool calls with the input as JSON arguments) plus the stop reason as meta.
 */
import { z } from 'zod';
import { stream } from '../../contract/define';
import type { RunRecord } from '../../contract/runs';
import { textSendSchema, type TextStreamChunk } from '../../contract/text';

/** Structure only: the rules are checked by shared/validate/messages (worded for a person). */
export const MessagesRequestSchema = z.looseObject({
  model: z.string().min(1, 'choose a model').max(200),
  messages: z
    .array(
      z.looseObject({
        role: z.string().min(1).max(32),
        content: z.union([z.string(), z.array(z.looseObject({ type: z.string().min(1).max(64) }))]),
      }),
    )
    .min(1, 'add at least one message')
    .max(10_000),
  max_tokens: z.number().optional(),
  stream: z.boolean().nullable().optional(),
});

export const MessagesSendSchema = textSendSchema(MessagesRequestSchema);
export type MessagesSendInput = z.input<typeof MessagesSendSchema>;

export const messagesContract = {
  send: stream<TextStreamChunk, RunRecord>()(MessagesSendSchema),
};
