/**
 * What a recorded request sent, as read-only turns for any text interface: chat messages;
 * Messages' system and turns of blocks; Responses' instructions and input (a string or items);
 * the legacy prompt(s). Non-text parts are named in brackets rather than dumped.
 */
import type { Endpoint } from '@shared/contract/runs';
import { endpointInfo, type InputShape } from '@shared/families';
import { prettyJson } from './format';
import { isObject } from '@shared/is-object';
import { blobReferencesIn } from '@shared/contract/media';

export interface SentTurn {
  /** A role (`user`, `system`, …) or an item kind (`function_call_output`, `compaction`, `prompt 2`). */
  label: string;
  text: string;
  /** A secondary id shown beside the label (tool call id, previous response id). */
  note?: string;
  /** Images the turn sent, as the blob hashes History's record refers to them by (see RunRecord.media). */
  images?: string[];
}

type Obj = Record<string, unknown>;

/** A content value (string, or parts / blocks of any interface) as text. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content == null ? '' : prettyJson(content);
  return content
    .map((part) => {
      if (!isObject(part)) return String(part);
      if (typeof part.text === 'string') return part.text;
      if (part.type === 'thinking' && typeof part.thinking === 'string') return `[thinking] ${part.thinking}`;
      if (part.type === 'tool_use') return `[tool_use ${String(part.name)}] ${JSON.stringify(part.input ?? {})}`;
      if (part.type === 'tool_result') return `[tool_result ${String(part.tool_use_id)}] ${contentText(part.content)}`;
      return `[${String(part.type ?? 'part')}]`;
    })
    .join('\n');
}

function chatTurns(body: Obj): SentTurn[] {
  const list = Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
  return list.map((m) => ({
    label: String(m.role ?? 'message'),
    text: m.content != null && m.content !== '' ? contentText(m.content) : Array.isArray(m.tool_calls) ? prettyJson(m.tool_calls) : '',
    ...(typeof m.tool_call_id === 'string' ? { note: m.tool_call_id } : {}),
  }));
}

function messagesTurns(body: Obj): SentTurn[] {
  const system = body.system !== undefined && body.system !== '' ? [{ label: 'system', text: contentText(body.system) }] : [];
  return [...system, ...chatTurns(body)];
}

function responsesTurns(body: Obj): SentTurn[] {
  const turns: SentTurn[] = [];
  if (typeof body.instructions === 'string' && body.instructions) turns.push({ label: 'instructions', text: body.instructions });
  if (typeof body.input === 'string') turns.push({ label: 'user', text: body.input });
  for (const item of Array.isArray(body.input) ? body.input.filter(isObject) : []) {
    if (item.type === 'function_call_output') turns.push({ label: 'function_call_output', text: String(item.output ?? ''), note: String(item.call_id ?? '') });
    else if (item.type === 'compaction') turns.push({ label: 'compaction', text: 'Earlier turns, compacted by the service (opaque).', note: String(item.id ?? '') });
    else if (item.type === 'function_call') turns.push({ label: 'function_call', text: `${String(item.name)}(${String(item.arguments ?? '')})`, note: String(item.call_id ?? '') });
    else turns.push({ label: String(item.role ?? item.type ?? 'item'), text: contentText(item.content) });
  }
  if (typeof body.previous_response_id === 'string' && turns.length > 0) turns[0] = { ...turns[0]!, note: `after ${body.previous_response_id}` };
  return turns;
}

function promptTurns(body: Obj): SentTurn[] {
  if (typeof body.prompt === 'string') return [{ label: 'prompt', text: body.prompt }];
  const prompts = Array.isArray(body.prompt) ? body.prompt : [];
  return prompts.map((p, i) => ({ label: prompts.length > 1 ? `prompt ${i + 1}` : 'prompt', text: String(p) }));
}

const TURN_READERS: Record<InputShape, (body: Obj) => SentTurn[]> = {
  chat: chatTurns,
  messages: messagesTurns,
  responses: responsesTurns,
  prompt: promptTurns,
  none: () => [],
};

/** The turns a recorded request of `endpoint` sent. */
export function sentTurns(endpoint: Endpoint, body: unknown): SentTurn[] {
  if (!isObject(body)) return [];
  const turns = TURN_READERS[endpointInfo(endpoint)?.input ?? 'chat'](body);
  // Each turn's images, by reference, in the order the readers listed the turns' sources.
  const sources = turnSources(endpointInfo(endpoint)?.input ?? 'chat', body);
  return turns.map((turn, i) => {
    const images = blobReferencesIn(sources[i]).filter((r) => r.mime.startsWith('image/')).map((r) => r.$blob);
    return images.length ? { ...turn, images } : turn;
  });
}

/** What each turn of `sentTurns` was read from (same order), where images may sit. */
function turnSources(shape: InputShape, body: Obj): unknown[] {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
  switch (shape) {
    case 'chat':
      return messages;
    case 'messages':
      return body.system !== undefined && body.system !== '' ? [body.system, ...messages] : messages;
    case 'responses': {
      const items = Array.isArray(body.input) ? body.input.filter(isObject) : [];
      const head = [...(typeof body.instructions === 'string' && body.instructions ? [null] : []), ...(typeof body.input === 'string' ? [null] : [])];
      return [...head, ...items];
    }
    default:
      return [];
  }
}
