/**
 * The conversation.item.* client events of a realtime session: create (checked by
 * conversation.ts), delete, retrieve (the OpenAI GA name), and truncate (an assistant answer cut
 * at `audio_end_ms`, its transcript to the whole words heard; the answer being spoken is cancelled
 * first). Each misuse is an `error` event and the session goes on.
 */
import { checkClientItem, itemWire, truncateSpoken, type Conversation } from './conversation';
import type { EventSender, RealtimeErrorInfo } from './events';
import { clipInfo } from './input-audio';
import type { RealtimeResponse } from './response';
import type { AudioFormat } from './session-config';

export type Message = Record<string, unknown> & { type: string; event_id?: string };

export interface ItemHost {
  readonly conversation: Conversation;
  readonly sender: EventSender;
  /** The response in progress, if any. */
  readonly response: RealtimeResponse | null;
  readonly inputFormat: AudioFormat;
  /** An `error` event answering `m`. */
  fail(m: Message, info: Omit<RealtimeErrorInfo, 'event_id'>): Promise<void>;
  /** A user item arrived (the idle count restarts). */
  userActivity(): void;
}

export async function itemCreate(h: ItemHost, m: Message): Promise<void> {
  if (m.item === undefined) return h.fail(m, { code: 'missing_required_parameter', message: "Missing required parameter: 'item'.", param: 'item' });
  const item = checkClientItem(m.item, h.conversation, (b64) => clipInfo(b64, h.inputFormat));
  if (!('object' in item)) return h.fail(m, { code: item.code, message: item.message, param: item.param });
  if (m.previous_item_id !== undefined && m.previous_item_id !== null && typeof m.previous_item_id !== 'string') return h.fail(m, { code: 'invalid_type', message: 'previous_item_id must be a string or null.', param: 'previous_item_id' });
  const issue = h.conversation.insert(item, m.previous_item_id as string | null | undefined);
  if (issue) return h.fail(m, issue);
  await h.sender.send('conversation.item.added', { previous_item_id: h.conversation.previousOf(item), item: itemWire(item) });
  if (item.role === 'user' || item.type === 'function_call_output') {
    h.userActivity();
  }
}

export async function itemDelete(h: ItemHost, m: Message): Promise<void> {
  if (typeof m.item_id !== 'string') return h.fail(m, { code: 'missing_required_parameter', message: "Missing required parameter: 'item_id'.", param: 'item_id' });
  if (h.response?.item?.id === m.item_id) return h.fail(m, { code: 'invalid_value', message: `Item ${m.item_id} is being written by the response in progress: cancel it first.`, param: 'item_id' });
  if (!h.conversation.delete(m.item_id)) return h.fail(m, { code: 'item_not_found', message: `No item ${m.item_id} in the conversation.`, param: 'item_id' });
  await h.sender.send('conversation.item.deleted', { item_id: m.item_id });
}

export async function itemRetrieve(h: ItemHost, m: Message): Promise<void> {
  const item = typeof m.item_id === 'string' ? h.conversation.find(m.item_id) : undefined;
  if (!item) return h.fail(m, { code: 'item_not_found', message: `No item ${String(m.item_id)} in the conversation.`, param: 'item_id' });
  await h.sender.send('conversation.item.retrieved', { item: itemWire(item) });
}

/** Cuts an assistant answer's audio at `audio_end_ms` and its transcript to the words heard by then. */
export async function itemTruncate(h: ItemHost, m: Message): Promise<void> {
  if (typeof m.item_id !== 'string') return h.fail(m, { code: 'missing_required_parameter', message: "Missing required parameter: 'item_id'.", param: 'item_id' });
  if (!Number.isInteger(m.content_index)) return h.fail(m, { code: 'invalid_type', message: 'content_index must be an integer.', param: 'content_index' });
  if (!Number.isInteger(m.audio_end_ms) || (m.audio_end_ms as number) < 0) return h.fail(m, { code: 'invalid_value', message: 'audio_end_ms must be a whole number of milliseconds, 0 or more.', param: 'audio_end_ms' });
  // Barge-in: the answer being spoken stops first, then it is cut where the listener stopped hearing it.
  if (h.response && h.response.item?.id === m.item_id) {
    h.response.cancel();
    await h.response.done;
  }
  const item = h.conversation.find(m.item_id);
  if (!item) return h.fail(m, { code: 'item_not_found', message: `No item ${m.item_id} in the conversation.`, param: 'item_id' });
  if (item.role !== 'assistant' || !item.spoken) return h.fail(m, { code: 'invalid_value', message: `Item ${m.item_id} is not an assistant message with audio: only the model's spoken answers can be truncated.`, param: 'item_id' });
  if (m.content_index !== 0) return h.fail(m, { code: 'invalid_value', message: `content_index ${String(m.content_index)} is not an audio part of item ${m.item_id} (its audio is content 0).`, param: 'content_index' });
  const end = m.audio_end_ms as number;
  if (end > item.spoken.totalMs) return h.fail(m, { code: 'invalid_value', message: `audio_end_ms ${end} is past the end of the item's audio (${item.spoken.totalMs} ms).`, param: 'audio_end_ms' });
  truncateSpoken(item, end);
  await h.sender.send('conversation.item.truncated', { item_id: item.id, content_index: 0, audio_end_ms: end });
}
