/**
 * The legacy interfaces: `POST /v1/completions` (`send`; streamed or plain, a choice per prompt
 * and `n`) and `POST /v1/complete` (`complete`; never streamed: the service does not support it).
 * Both report through the same chunk kinds as chat, so the run view is shared.
 */
import { z } from 'zod';
import { stream } from '../../contract/define';
import type { RunRecord } from '../../contract/runs';
import { textSendSchema, type TextStreamChunk } from '../../contract/text';

export const CompletionsRequestSchema = z.looseObject({
  model: z.string().min(1, 'choose a model').max(200),
  prompt: z.union([z.string().max(10_000_000), z.array(z.string().max(10_000_000)).min(1).max(128)]),
  stream: z.boolean().nullable().optional(),
  n: z.number().nullable().optional(),
});

export const CompleteRequestSchema = z.looseObject({
  model: z.string().min(1, 'choose a model').max(200),
  prompt: z.string().max(10_000_000),
  max_tokens_to_sample: z.number().optional(),
});

export const CompletionsSendSchema = textSendSchema(CompletionsRequestSchema);
export const CompleteSendSchema = textSendSchema(CompleteRequestSchema);
export type CompletionsSendInput = z.input<typeof CompletionsSendSchema>;
export type CompleteSendInput = z.input<typeof CompleteSendSchema>;

export const completionsContract = {
  /** POST /v1/completions. */
  send: stream<TextStreamChunk, RunRecord>()(CompletionsSendSchema),
  /** POST /v1/complete (legacy; plain only). */
  complete: stream<TextStreamChunk, RunRecord>()(CompleteSendSchema),
};
