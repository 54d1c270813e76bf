/**
 * The control messages an attached window sends a realtime call (`live.attach` messages), checked
 * in main with this schema. Each maps to what the call does on the socket or in main:
 * `commit`/`clear` the input buffer (push-to-talk), `response.create` (optional body) and
 * `response.cancel`, a typed user message, a manual tool answer, the auto-responder's replies,
 * the page's played position (barge-in with page playback), mute, hang up, reconnect.
 */
import { z } from 'zod';
import { RealtimeAutoRepliesSchema } from './input';

export const RealtimeCallControlSchema = z.discriminatedUnion('type', [
  /** Push-to-talk released: `input_audio_buffer.commit` (then `response.create` unless `respond: false`). */
  z.object({ type: z.literal('commit'), respond: z.boolean().default(true) }).strict(),
  /** `input_audio_buffer.clear`. */
  z.object({ type: z.literal('clear') }).strict(),
  /** `response.create` with an optional `response` body (instructions, modalities, voice, …). */
  z.object({ type: z.literal('response.create'), response: z.record(z.string(), z.unknown()).optional() }).strict(),
  /** `response.cancel` of the response in progress; playback is flushed and the answer truncated to what was heard. */
  z.object({ type: z.literal('response.cancel') }).strict(),
  /** A typed user message (`conversation.item.create` with input_text), answered unless `respond: false`. */
  z.object({ type: z.literal('text'), text: z.string().min(1).max(100_000), respond: z.boolean().default(true) }).strict(),
  /** A manual answer to a pending function call (`function_call_output`), then `response.create` unless `respond: false`. */
  z.object({ type: z.literal('tool-output'), callId: z.string().min(1).max(200), output: z.string().max(200_000), respond: z.boolean().default(true) }).strict(),
  /** Replace the auto-responder's saved replies (by tool name). */
  z.object({ type: z.literal('set-auto-replies'), replies: RealtimeAutoRepliesSchema }).strict(),
  /**
   * Page playback: how much of an answer item the page has played (ms of that item's audio).
   * Sent about 10 times a second while playing and at once when the page flushes for a barge-in,
   * so the truncate carries what was actually heard.
   */
  z.object({ type: z.literal('played'), itemId: z.string().min(1).max(200), playedMs: z.number().min(0).max(24 * 3600_000), flushed: z.boolean().default(false) }).strict(),
  /** Mute the microphone (silence keeps the service's audio clock). */
  z.object({ type: z.literal('mute'), muted: z.boolean() }).strict(),
  /** End the call (the recording is kept). */
  z.object({ type: z.literal('hang-up') }).strict(),
  /** After a drop: open the socket again and seed the conversation from the transcript. */
  z.object({ type: z.literal('reconnect') }).strict(),
]);
export type RealtimeCallControl = z.infer<typeof RealtimeCallControlSchema>;
export type RealtimeCallControlDraft = z.input<typeof RealtimeCallControlSchema>;
