/**
 * Validation of Messages content: the blocks of each turn (wire-notes §1.4: text, image, tool_use,
 * tool_result, thinking, redacted_thinking; `cache_control` accepted anywhere), which blocks may
 * appear in which role, and tool results that must answer an earlier tool_use.
 */
import { collect, expectEnum, expectType, isObject, isUnset, shape, value, type RequestViolation } from './violations';

const USER_BLOCKS = ['text', 'image', 'tool_result'] as const;
const ASSISTANT_BLOCKS = ['text', 'tool_use', 'thinking', 'redacted_thinking'] as const;
const ALL_BLOCKS = [...new Set([...USER_BLOCKS, ...ASSISTANT_BLOCKS])];
/** Image media types the Messages interface takes as base64. */
export const IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

/** Every rule of the `messages` array; field names are `messages[i].content[k].x`. */
export function validateMessagesTurns(messages: unknown): RequestViolation[] {
  if (messages === undefined) return [shape('messages', 'messages is required: send at least one user message')];
  if (!Array.isArray(messages)) return [shape('messages', 'messages must be an array of {role, content} objects')];
  if (messages.length === 0) return [value('messages', 'messages must contain at least one message')];
  const toolUseIds = new Set<string>();
  return messages.flatMap((m, i) => validateTurn(m, `messages[${i}]`, toolUseIds));
}

function validateTurn(m: unknown, at: string, toolUseIds: Set<string>): RequestViolation[] {
  if (!isObject(m)) return [shape(at, `${at} must be an object with a role and content`)];
  if (m.role === undefined) return [shape(`${at}.role`, `${at}.role is required ("user" or "assistant")`)];
  const role = expectEnum(`${at}.role`, m.role, ['user', 'assistant']);
  if (role) return [role];
  if (isUnset(m.content)) return [shape(`${at}.content`, `${at}.content is required: a string or an array of content blocks`)];
  if (typeof m.content === 'string') return [];
  if (!Array.isArray(m.content)) return [shape(`${at}.content`, `${at}.content must be a string or an array of content blocks`)];
  if (m.content.length === 0) return [value(`${at}.content`, `${at}.content must not be an empty array`)];
  const allowed: readonly string[] = m.role === 'user' ? USER_BLOCKS : ASSISTANT_BLOCKS;
  return m.content.flatMap((b, k) => validateBlock(b, `${at}.content[${k}]`, m.role as string, allowed, toolUseIds));
}

function validateBlock(
  b: unknown,
  at: string,
  role: string,
  allowed: readonly string[],
  toolUseIds: Set<string>,
): RequestViolation[] {
  if (!isObject(b)) return [shape(at, `${at} must be a content block object with a type`)];
  const type = b.type === undefined ? shape(`${at}.type`, `${at}.type is required`) : expectEnum(`${at}.type`, b.type, ALL_BLOCKS);
  if (type) return [type];
  const out = collect(expectType(`${at}.cache_control`, b.cache_control, 'object'));
  if (!allowed.includes(b.type as string)) {
    const belongs = role === 'user' ? 'assistant' : 'user';
    const article = b.type === 'image' ? 'an' : 'a';
    out.push(value(`${at}.type`, `${at} is ${article} ${String(b.type)} block, which belongs in ${belongs} turns, not ${role} turns`));
    return out;
  }
  switch (b.type) {
    case 'text':
      out.push(...textBlock(b, at));
      break;
    case 'image':
      out.push(...imageBlock(b, at));
      break;
    case 'tool_use':
      out.push(...toolUseBlock(b, at));
      if (typeof b.id === 'string') toolUseIds.add(b.id);
      break;
    case 'tool_result':
      out.push(...toolResultBlock(b, at, toolUseIds));
      break;
    case 'thinking':
      out.push(...stringField(b, at, 'thinking'), ...stringField(b, at, 'signature'));
      break;
    case 'redacted_thinking':
      out.push(...stringField(b, at, 'data'));
      break;
  }
  return out;
}

function stringField(b: Record<string, unknown>, at: string, field: string): RequestViolation[] {
  return typeof b[field] === 'string' ? [] : [shape(`${at}.${field}`, `${at}.${field} must be a string`)];
}

/** A `{type: "text", text}` block (also used for `system` blocks). */
export function textBlock(b: Record<string, unknown>, at: string): RequestViolation[] {
  return stringField(b, at, 'text');
}

function imageBlock(b: Record<string, unknown>, at: string): RequestViolation[] {
  const src = b.source;
  const where = `${at}.source`;
  if (!isObject(src)) {
    return [shape(where, `${where} is required: {type: "base64", media_type, data} or {type: "url", url}`)];
  }
  const type = expectEnum(`${where}.type`, src.type ?? '', ['base64', 'url']);
  if (type) return [type];
  if (src.type === 'url') {
    if (typeof src.url !== 'string') return [shape(`${where}.url`, `${where}.url must be a string`)];
    return /^https?:\/\//i.test(src.url) ? [] : [value(`${where}.url`, `${where}.url must be an http(s) URL`)];
  }
  const out = collect(expectEnum(`${where}.media_type`, src.media_type ?? '', IMAGE_MEDIA_TYPES));
  if (typeof src.data !== 'string') out.push(shape(`${where}.data`, `${where}.data must be a base64 string`));
  else if (src.data.length === 0) out.push(value(`${where}.data`, `${where}.data must not be empty`));
  else if (!/^[A-Za-z0-9+/]+={0,2}$/.test(src.data)) {
    out.push(value(`${where}.data`, `${where}.data is not valid base64 (send the bytes without a data: URL prefix)`));
  }
  return out;
}

function toolUseBlock(b: Record<string, unknown>, at: string): RequestViolation[] {
  return collect(
    typeof b.id === 'string' ? null : shape(`${at}.id`, `${at}.id must be a string (the id the tool_result will answer)`),
    typeof b.name === 'string' ? null : shape(`${at}.name`, `${at}.name must be a string`),
    isObject(b.input) ? null : shape(`${at}.input`, `${at}.input must be an object (the tool's arguments)`),
  );
}

function toolResultBlock(b: Record<string, unknown>, at: string, toolUseIds: Set<string>): RequestViolation[] {
  const out: RequestViolation[] = [];
  if (typeof b.tool_use_id !== 'string') {
    out.push(shape(`${at}.tool_use_id`, `${at}.tool_use_id must be a string: the id of the tool_use block it answers`));
  } else if (!toolUseIds.has(b.tool_use_id)) {
    out.push(
      value(`${at}.tool_use_id`, `${at}.tool_use_id "${b.tool_use_id}" does not match any tool_use block in an earlier assistant turn`),
    );
  }
  out.push(...collect(expectType(`${at}.is_error`, b.is_error, 'boolean')));
  const c = b.content;
  if (isUnset(c) || typeof c === 'string') return out;
  if (!Array.isArray(c)) {
    out.push(shape(`${at}.content`, `${at}.content must be a string or an array of text and image blocks`));
    return out;
  }
  c.forEach((part, k) => {
    const where = `${at}.content[${k}]`;
    if (!isObject(part)) return out.push(shape(where, `${where} must be a text or image block`));
    const type = expectEnum(`${where}.type`, part.type ?? '', ['text', 'image']);
    if (type) return out.push(type);
    return out.push(...(part.type === 'text' ? textBlock(part, where) : imageBlock(part, where)));
  });
  return out;
}
