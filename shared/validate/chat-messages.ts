/**
 * Validation of chat `messages` (wire-notes §1.3 "Chat messages"): roles, content shapes, content
 * parts, assistant tool calls, and tool results that must name the call they answer.
 */
import { collect, expectEnum, expectType, isObject, isUnset, shape, value, type RequestViolation } from './violations';

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'] as const;
const PART_TYPES = ['text', 'image_url', 'file', 'text_file'] as const;
const IMAGE_DETAIL = ['auto', 'low', 'high'] as const;

/** Every rule of the `messages` array; field names are `messages[i].x`. */
export function validateMessages(messages: unknown): RequestViolation[] {
  if (messages === undefined) return [shape('messages', 'messages is required: send at least one message')];
  if (!Array.isArray(messages)) return [shape('messages', 'messages must be an array of message objects')];
  if (messages.length === 0) return [value('messages', 'messages must contain at least one message')];
  return messages.flatMap((m, i) => validateMessage(m, `messages[${i}]`));
}

function validateMessage(m: unknown, at: string): RequestViolation[] {
  if (!isObject(m)) return [shape(at, `${at} must be an object with a role and content`)];
  if (m.role === undefined) return [shape(`${at}.role`, `${at}.role is required`)];
  const role = expectEnum(`${at}.role`, m.role, ROLES);
  if (role) return [role];
  const out = collect(expectType(`${at}.name`, m.name, 'string'));
  if (m.role === 'assistant') out.push(...validateAssistant(m, at));
  else {
    if (isUnset(m.content)) out.push(shape(`${at}.content`, `${at}.content is required for a ${m.role} message`));
    else out.push(...validateContent(m.content, `${at}.content`));
  }
  if (m.role === 'tool') {
    if (isUnset(m.tool_call_id)) {
      out.push(shape(`${at}.tool_call_id`, `${at}.tool_call_id is required: a tool message answers one tool call`));
    } else out.push(...collect(expectType(`${at}.tool_call_id`, m.tool_call_id, 'string')));
  }
  return out;
}

function validateAssistant(m: Record<string, unknown>, at: string): RequestViolation[] {
  const out: RequestViolation[] = [];
  if (!isUnset(m.content)) out.push(...validateContent(m.content, `${at}.content`));
  out.push(...collect(expectType(`${at}.reasoning_content`, m.reasoning_content, 'string')));
  const calls = m.tool_calls;
  if (!isUnset(calls)) {
    if (!Array.isArray(calls)) out.push(shape(`${at}.tool_calls`, `${at}.tool_calls must be an array`));
    else calls.forEach((c, j) => out.push(...validateToolCall(c, `${at}.tool_calls[${j}]`)));
  }
  const hasCalls = Array.isArray(calls) && calls.length > 0;
  if (isUnset(m.content) && !hasCalls) {
    out.push(value(`${at}.content`, `${at}.content is required unless the assistant message has tool_calls`));
  }
  return out;
}

function validateToolCall(c: unknown, at: string): RequestViolation[] {
  if (!isObject(c)) return [shape(at, `${at} must be an object with id, type and function`)];
  const out = collect(
    c.id === undefined ? shape(`${at}.id`, `${at}.id is required`) : expectType(`${at}.id`, c.id, 'string'),
    expectType(`${at}.type`, c.type, 'string'),
  );
  if (!isObject(c.function)) {
    out.push(shape(`${at}.function`, `${at}.function must be an object with name and arguments`));
    return out;
  }
  const fn = c.function;
  if (typeof fn.name !== 'string') out.push(shape(`${at}.function.name`, `${at}.function.name must be a string`));
  if (typeof fn.arguments !== 'string') {
    out.push(shape(`${at}.function.arguments`, `${at}.function.arguments must be a JSON string`));
  }
  return out;
}

function validateContent(content: unknown, at: string): RequestViolation[] {
  if (typeof content === 'string') return [];
  if (!Array.isArray(content)) return [shape(at, `${at} must be a string or an array of content parts`)];
  return content.flatMap((p, k) => validatePart(p, `${at}[${k}]`));
}

function validatePart(p: unknown, at: string): RequestViolation[] {
  if (!isObject(p)) return [shape(at, `${at} must be a content part object with a type`)];
  const type = p.type === undefined ? shape(`${at}.type`, `${at}.type is required`) : expectEnum(`${at}.type`, p.type, PART_TYPES);
  if (type) return [type];
  switch (p.type) {
    case 'text':
      return typeof p.text === 'string' ? [] : [shape(`${at}.text`, `${at}.text must be a string`)];
    case 'image_url': {
      const img = p.image_url;
      if (!isObject(img) || typeof img.url !== 'string') {
        return [shape(`${at}.image_url`, `${at}.image_url must be an object with a url string`)];
      }
      if (img.url.length === 0) return [value(`${at}.image_url.url`, `${at}.image_url.url must not be empty`)];
      return collect(expectEnum(`${at}.image_url.detail`, img.detail, IMAGE_DETAIL));
    }
    case 'file': {
      const file = p.file;
      if (!isObject(file) || (typeof file.file_id !== 'string' && typeof file.url !== 'string')) {
        return [shape(`${at}.file`, `${at}.file must be an object with a file_id or a url`)];
      }
      return [];
    }
    default:
      return [];
  }
}
