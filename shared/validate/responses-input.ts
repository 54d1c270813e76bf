/**
 * Validation of responses `input` (wire-notes §1.3 "Responses input items"): a non-empty string,
 * or a non-empty array of messages, `function_call_output` items, `compaction` items and prior
 * output items passed back verbatim (message, reasoning, function_call, web_search_call).
 */
import { collect, expectEnum, expectType, isObject, isUnset, shape, value, type RequestViolation } from './violations';

const ROLES = ['user', 'assistant', 'system', 'developer'] as const;
const PART_TYPES = ['input_text', 'input_image', 'input_file', 'output_text', 'refusal'] as const;
/** Item types the input accepts; a message may also leave `type` out. */
export const INPUT_ITEM_TYPES = ['message', 'function_call_output', 'compaction', 'function_call', 'reasoning', 'web_search_call'] as const;

/** Every rule of `input`; `field` names it in messages (`input` or a nested name). */
export function validateInput(input: unknown, field = 'input'): RequestViolation[] {
  if (input === undefined || input === null) {
    return [shape(field, `${field} is required: a string or an array of input items`)];
  }
  if (typeof input === 'string') {
    return input.trim() === '' ? [value(field, `${field} must not be empty`)] : [];
  }
  if (!Array.isArray(input)) return [shape(field, `${field} must be a string or an array of input items`)];
  if (input.length === 0) return [value(field, `${field} must contain at least one item`)];
  return input.flatMap((item, i) => validateItem(item, `${field}[${i}]`));
}

function requiredString(at: string, v: unknown): RequestViolation | null {
  if (v === undefined || v === null) return shape(at, `${at} is required`);
  return typeof v === 'string' ? null : shape(at, `${at} must be a string`);
}

function validateItem(item: unknown, at: string): RequestViolation[] {
  if (!isObject(item)) return [shape(at, `${at} must be an object (a message or an item with a type)`)];
  if (item.type === undefined && item.role !== undefined) return validateMessage(item, at);
  if (item.type === undefined) return [shape(`${at}.type`, `${at}.type is required (or give a role to send a message)`)];
  const type = expectEnum(`${at}.type`, item.type, INPUT_ITEM_TYPES);
  if (type) return [type];
  switch (item.type) {
    case 'message':
      return validateMessage(item, at);
    case 'function_call_output': {
      const out = collect(requiredString(`${at}.call_id`, item.call_id));
      if (item.output === undefined || item.output === null) out.push(shape(`${at}.output`, `${at}.output is required: the function's result as a string`));
      else if (typeof item.output !== 'string' && !Array.isArray(item.output)) {
        out.push(shape(`${at}.output`, `${at}.output must be a string (the function's result)`));
      }
      return out;
    }
    case 'compaction':
      return collect(
        requiredString(`${at}.encrypted_content`, item.encrypted_content),
        expectType(`${at}.id`, item.id, 'string'),
      );
    case 'function_call':
      return collect(
        requiredString(`${at}.call_id`, item.call_id),
        requiredString(`${at}.name`, item.name),
        requiredString(`${at}.arguments`, item.arguments),
      );
    case 'reasoning':
      return isUnset(item.summary) || Array.isArray(item.summary) ? [] : [shape(`${at}.summary`, `${at}.summary must be an array`)];
    default:
      return [];
  }
}

function validateMessage(m: Record<string, unknown>, at: string): RequestViolation[] {
  if (m.role === undefined) return [shape(`${at}.role`, `${at}.role is required: "user", "assistant", "system" or "developer"`)];
  const role = expectEnum(`${at}.role`, m.role, ROLES);
  if (role) return [role];
  const content = m.content;
  if (content === undefined || content === null) return [shape(`${at}.content`, `${at}.content is required: a string or an array of content parts`)];
  if (typeof content === 'string') return [];
  if (!Array.isArray(content)) return [shape(`${at}.content`, `${at}.content must be a string or an array of content parts`)];
  return content.flatMap((p, k) => validatePart(p, `${at}.content[${k}]`));
}

function validatePart(p: unknown, at: string): RequestViolation[] {
  if (!isObject(p)) return [shape(at, `${at} must be a content part object with a type`)];
  const type = p.type === undefined ? shape(`${at}.type`, `${at}.type is required`) : expectEnum(`${at}.type`, p.type, PART_TYPES);
  if (type) return [type];
  switch (p.type) {
    case 'input_text':
    case 'output_text':
      return typeof p.text === 'string' ? [] : [shape(`${at}.text`, `${at}.text must be a string`)];
    case 'refusal':
      return typeof p.refusal === 'string' ? [] : [shape(`${at}.refusal`, `${at}.refusal must be a string`)];
    case 'input_image':
      if (typeof p.image_url !== 'string' && typeof p.file_id !== 'string') {
        return [shape(`${at}`, `${at} needs an image_url or a file_id`)];
      }
      return collect(expectEnum(`${at}.detail`, p.detail, ['auto', 'low', 'high']));
    case 'input_file':
      if (typeof p.file_id !== 'string' && typeof p.file_data !== 'string' && typeof p.file_url !== 'string') {
        return [shape(`${at}`, `${at} needs a file_id, file_data (with filename) or file_url`)];
      }
      return [];
    default:
      return [];
  }
}
