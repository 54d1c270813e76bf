/**
 * A realtime session's conversation: its items in order (user and assistant messages, function
 * calls and their outputs), as `conversation.item.create` / `.delete` / `.truncate`, committed
 * audio and responses change it. Items keep what planning and truncation need beyond the wire
 * (a user clip's length, an assistant answer's per-character times).
 */
import { isObject } from '../../../shared/validate/violations';
import { newId } from './events';

export interface ContentPart {
  type: 'input_text' | 'input_audio' | 'text' | 'audio';
  text?: string;
  transcript?: string | null;
}

export interface ConversationItem {
  id: string;
  object: 'realtime.item';
  type: 'message' | 'function_call' | 'function_call_output';
  status: 'completed' | 'in_progress' | 'incomplete';
  role?: 'user' | 'assistant' | 'system';
  content?: ContentPart[];
  call_id?: string;
  name?: string;
  arguments?: string;
  output?: string;
  /** Not on the wire: a user clip's milliseconds and a hash of its samples (planning, usage). */
  audio?: { ms: number; seed: string };
  /** Not on the wire: an assistant answer's spoken characters with their end times (ms), for truncate. */
  spoken?: { chars: string[]; endsMs: number[]; totalMs: number };
}

/** An item as the wire shows it (without the kept extras). */
export function itemWire(item: ConversationItem): Record<string, unknown> {
  const { audio: _a, spoken: _s, ...wire } = item;
  return wire;
}

export interface ItemIssue {
  param: string;
  code: string;
  message: string;
}

export class Conversation {
  readonly id = newId('conv');
  readonly items: ConversationItem[] = [];

  find(id: string): ConversationItem | undefined {
    return this.items.find((i) => i.id === id);
  }

  /** The id of the item before `item` (null at the start). */
  previousOf(item: ConversationItem): string | null {
    const at = this.items.indexOf(item);
    return at > 0 ? this.items[at - 1].id : null;
  }

  /** Inserts after `previous` (an id; `root` = the start); undefined or null = at the end. */
  insert(item: ConversationItem, previous?: string | null): ItemIssue | null {
    if (this.find(item.id)) return { param: 'item.id', code: 'invalid_value', message: `An item with id ${item.id} is already in the conversation.` };
    if (previous === undefined || previous === null) this.items.push(item);
    else if (previous === 'root') this.items.unshift(item);
    else {
      const at = this.items.findIndex((i) => i.id === previous);
      if (at < 0) return { param: 'previous_item_id', code: 'invalid_value', message: `previous_item_id ${previous} is not an item of the conversation.` };
      this.items.splice(at + 1, 0, item);
    }
    return null;
  }

  delete(id: string): boolean {
    const at = this.items.findIndex((i) => i.id === id);
    if (at < 0) return false;
    this.items.splice(at, 1);
    return true;
  }

  /** The function call a `function_call_output` answers. */
  callOf(callId: string): ConversationItem | undefined {
    return this.items.find((i) => i.type === 'function_call' && i.call_id === callId);
  }
}

/** Cuts an assistant answer's audio at `endMs`; its transcript keeps the whole words whose sound ended by then. */
export function truncateSpoken(item: ConversationItem, endMs: number): void {
  if (!item.spoken) return;
  const { chars, endsMs } = item.spoken;
  let keep = 0;
  while (keep < chars.length && endsMs[keep] <= endMs) keep++;
  // A word cut in the middle was not heard: drop it.
  if (keep < chars.length && /[\p{L}\p{N}]/u.test(chars[keep])) while (keep > 0 && /[\p{L}\p{N}'’-]/u.test(chars[keep - 1])) keep--;
  item.spoken = { chars: chars.slice(0, keep), endsMs: endsMs.slice(0, keep), totalMs: endMs };
  item.content = [{ type: 'audio', transcript: chars.slice(0, keep).join('').trimEnd() }];
}

/**
 * A client's `conversation.item.create` item checked into a conversation item; `decodeAudio`
 * turns an `input_audio` part's base64 (the session's input format) into its length and seed.
 */
export function checkClientItem(raw: unknown, conversation: Conversation, decodeAudio: (b64: string) => { ms: number; seed: string } | string): ConversationItem | ItemIssue {
  const bad = (param: string, message: string, code = 'invalid_value'): ItemIssue => ({ param, code, message });
  if (!isObject(raw)) return bad('item', 'item must be an object', 'invalid_type');
  const id = raw.id === undefined || raw.id === null ? newId('item') : raw.id;
  if (typeof id !== 'string' || id === '' || id.length > 64) return bad('item.id', 'item.id must be a string of 1-64 characters');
  const base = { id, object: 'realtime.item' as const, status: 'completed' as const };
  const type = raw.type ?? 'message';
  if (type === 'message') {
    const role = raw.role;
    if (role !== 'user' && role !== 'assistant' && role !== 'system') return bad('item.role', `item.role must be "user", "assistant" or "system"; got ${JSON.stringify(role ?? null)}`, role === undefined ? 'missing_required_parameter' : 'invalid_value');
    if (!Array.isArray(raw.content) || raw.content.length === 0) return bad('item.content', 'item.content must be a non-empty array of content parts', 'missing_required_parameter');
    const content: ContentPart[] = [];
    let audio: ConversationItem['audio'];
    for (const [i, part] of raw.content.entries()) {
      const p = `item.content[${i}]`;
      if (!isObject(part)) return bad(p, `${p} must be an object`, 'invalid_type');
      const textTypes = role === 'assistant' ? ['text', 'output_text'] : ['input_text'];
      if (textTypes.includes(part.type as string)) {
        if (typeof part.text !== 'string') return bad(`${p}.text`, `${p}.text must be a string`, 'invalid_type');
        content.push({ type: role === 'assistant' ? 'text' : 'input_text', text: part.text });
      } else if (role === 'user' && part.type === 'input_audio') {
        if (typeof part.audio !== 'string' || part.audio === '') return bad(`${p}.audio`, `${p}.audio must be base64 audio in the session's input format`, 'missing_required_parameter');
        const decoded = decodeAudio(part.audio);
        if (typeof decoded === 'string') return bad(`${p}.audio`, decoded);
        audio = decoded;
        content.push({ type: 'input_audio', transcript: typeof part.transcript === 'string' ? part.transcript : null });
      } else {
        const allowed = role === 'assistant' ? '"text" or "output_text" (assistant history seeding)' : role === 'user' ? '"input_text" or "input_audio"' : '"input_text"';
        return bad(`${p}.type`, `${p}.type must be ${allowed} for a ${role} message; got ${JSON.stringify(part.type ?? null)}`);
      }
    }
    return { ...base, type: 'message', role, content, ...(audio ? { audio } : {}) };
  }
  if (type === 'function_call') {
    for (const key of ['call_id', 'name', 'arguments'] as const) {
      if (typeof raw[key] !== 'string' || (key !== 'arguments' && raw[key] === '')) return bad(`item.${key}`, `item.${key} must be a string (a function_call has call_id, name and arguments)`, raw[key] === undefined ? 'missing_required_parameter' : 'invalid_type');
    }
    if (conversation.callOf(raw.call_id as string)) return bad('item.call_id', `A function_call with call_id ${String(raw.call_id)} is already in the conversation.`);
    return { ...base, type: 'function_call', call_id: raw.call_id as string, name: raw.name as string, arguments: raw.arguments as string };
  }
  if (type === 'function_call_output') {
    for (const key of ['call_id', 'output'] as const) {
      if (typeof raw[key] !== 'string') return bad(`item.${key}`, `item.${key} must be a string (a function_call_output has call_id and output)`, raw[key] === undefined ? 'missing_required_parameter' : 'invalid_type');
    }
    if (!conversation.callOf(raw.call_id as string)) return bad('item.call_id', `No function_call with call_id ${String(raw.call_id)} in the conversation: the output must answer a call the model made (or one seeded with conversation.item.create).`);
    return { ...base, type: 'function_call_output', call_id: raw.call_id as string, output: raw.output as string };
  }
  if (type === 'force_message') return bad('item.type', 'item.type "force_message" is not supported by the sandbox; send a response.create with instructions instead.');
  return bad('item.type', `item.type must be "message", "function_call" or "function_call_output"; got ${JSON.stringify(type)}`);
}
