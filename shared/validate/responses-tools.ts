/**
 * Validation of responses `tools`, `tool_choice` and `text.format` (wire-notes §1.3): flat
 * function tools (name pattern, unique, parameters an object JSON Schema) and web search tools,
 * at most LIMITS.tools.max (the spec says 128 for chat and messages; we apply it here too); a
 * named tool_choice must name a defined function; the three `text.format` variants.
 */
import { LIMITS } from '../limits';
import { collect, expectEnum, expectType, isObject, isUnset, shape, value, type RequestViolation } from './violations';

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const CHOICES = ['none', 'auto', 'required'] as const;
/** Tool types the sandbox can imitate; the service's other server-side tools are refused by name. */
export const RESPONSE_TOOL_TYPES = ['function', 'web_search', 'web_search_preview', 'x_search'] as const;
const UNSUPPORTED = ['file_search', 'code_interpreter', 'mcp', 'shell', 'image_generation', 'computer_use_preview', 'local_shell', 'custom'];
const CHOICE_MESSAGE = 'tool_choice must be "none", "auto", "required" or {type: "function", name}';

function validateFunctionTool(t: Record<string, unknown>, at: string, seen: Set<string>): RequestViolation[] {
  if (typeof t.name !== 'string') {
    const hint = isObject(t.function) ? ' (responses tools are flat: {type, name, parameters}, not nested under "function")' : '';
    return [shape(`${at}.name`, `${at}.name is required${hint}`)];
  }
  const out: RequestViolation[] = [];
  if (!NAME.test(t.name)) out.push(value(`${at}.name`, `${at}.name must be 1-64 letters, digits, underscores or dashes`));
  else if (seen.has(t.name)) out.push(value(`${at}.name`, `${at}.name "${t.name}" is defined twice; tool names must be unique`));
  seen.add(t.name);
  out.push(...collect(expectType(`${at}.description`, t.description, 'string'), expectType(`${at}.strict`, t.strict, 'boolean')));
  if (!isUnset(t.parameters)) {
    if (!isObject(t.parameters)) out.push(shape(`${at}.parameters`, `${at}.parameters must be a JSON Schema object`));
    else if (t.parameters.type !== undefined && t.parameters.type !== 'object') {
      out.push(value(`${at}.parameters`, `${at}.parameters must be a JSON Schema of type "object" (got type ${JSON.stringify(t.parameters.type)})`));
    }
  }
  return out;
}

/** Rules of the `tools` array. */
export function validateResponseTools(tools: unknown): RequestViolation[] {
  if (isUnset(tools)) return [];
  if (!Array.isArray(tools)) return [shape('tools', 'tools must be an array of tool objects')];
  const out: RequestViolation[] = [];
  if (tools.length > LIMITS.tools.max) out.push(value('tools', `tools must have at most ${LIMITS.tools.max} tools (got ${tools.length})`));
  const seen = new Set<string>();
  tools.forEach((t, i) => {
    const at = `tools[${i}]`;
    if (!isObject(t)) return out.push(shape(at, `${at} must be an object with a type`));
    if (typeof t.type === 'string' && UNSUPPORTED.includes(t.type)) {
      return out.push(value(`${at}.type`, `${at}.type "${t.type}" is not supported by the sandbox; use function or web_search tools`));
    }
    const type = t.type === undefined ? shape(`${at}.type`, `${at}.type is required`) : expectEnum(`${at}.type`, t.type, RESPONSE_TOOL_TYPES);
    if (type) return out.push(type);
    if (t.type === 'function') out.push(...validateFunctionTool(t, at, seen));
    else {
      out.push(...collect(expectType(`${at}.allowed_domains`, t.allowed_domains, 'array'), expectType(`${at}.excluded_domains`, t.excluded_domains, 'array')));
    }
    return out.length;
  });
  return out;
}

/** Rules of `tool_choice`, given the request's tools. */
export function validateResponseToolChoice(choice: unknown, tools: unknown): RequestViolation[] {
  if (isUnset(choice)) return [];
  const list = Array.isArray(tools) ? tools.filter(isObject) : [];
  const names = list.flatMap((t) => (t.type === 'function' && typeof t.name === 'string' ? [t.name] : []));
  if (typeof choice === 'string') {
    if (!(CHOICES as readonly string[]).includes(choice)) return [shape('tool_choice', CHOICE_MESSAGE)];
    if (choice === 'required' && list.length === 0) return [value('tool_choice', 'tool_choice "required" needs at least one tool in tools')];
    return [];
  }
  if (!isObject(choice) || choice.type !== 'function' || typeof choice.name !== 'string') return [shape('tool_choice', CHOICE_MESSAGE)];
  if (!names.includes(choice.name)) {
    return [value('tool_choice.name', `tool_choice names the function "${choice.name}", which is not defined in tools`)];
  }
  return [];
}

/** Rules of `text` and its `format`. */
export function validateTextFormat(text: unknown): RequestViolation[] {
  if (isUnset(text)) return [];
  if (!isObject(text)) return [shape('text', 'text must be an object {format: {...}}')];
  const format = text.format;
  if (isUnset(format)) return [];
  if (!isObject(format)) return [shape('text.format', 'text.format must be an object with a type')];
  const type = expectEnum('text.format.type', format.type ?? '', ['text', 'json_object', 'json_schema']);
  if (type) return [type];
  if (format.type !== 'json_schema') return [];
  if (isObject(format.json_schema) && format.schema === undefined) {
    return [shape('text.format.schema', 'text.format is flat in the Responses interface: {type: "json_schema", name, schema}, not nested under json_schema')];
  }
  return collect(
    format.schema === undefined
      ? shape('text.format.schema', 'text.format.schema is required for type "json_schema": a JSON Schema object')
      : expectType('text.format.schema', format.schema, 'object'),
    typeof format.name === 'string' && !NAME.test(format.name)
      ? value('text.format.name', 'text.format.name must be 1-64 letters, digits, underscores or dashes')
      : expectType('text.format.name', format.name, 'string'),
    expectType('text.format.description', format.description, 'string'),
    expectType('text.format.strict', format.strict, 'boolean'),
  );
}
